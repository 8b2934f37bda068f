import { passwordsMatch, rules } from '../ui/validation';

/** New password and its repeat (spec 1 §5): strong, and the repeat equal to it. */
export const newPasswordRules = {
  password: rules.newPassword,
  repeat: [rules.newPassword[0]!],
  cross: { repeat: (v: { password: string; repeat: string }) => passwordsMatch(v.password)(v.repeat) },
};
