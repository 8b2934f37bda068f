import { useCallback, useMemo, useState } from 'react';
import { validate, validationMessage, type Rule, type RuleResult } from './field-rules';

type Values = Record<string, string>;
export type FormRules<V extends Values> = { [K in keyof V]?: Array<Rule<string>> } & {
  /** Rules that look at several fields (repeat equals new, …); keyed by the field that shows the error. */
  cross?: Partial<Record<keyof V, (values: V) => RuleResult>>;
};

/**
 * Field values with the spec's rules. Errors show for a field once it was left or a submit was
 * tried, so nobody is scolded while still typing; `isValid` is live, for buttons that stay disabled
 * until the form is complete (spec 1 §2 settings, wizards).
 */
export function useForm<V extends Values>(initial: V, rules: FormRules<V>) {
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const errors = useMemo(() => {
    const out: Partial<Record<keyof V, RuleResult>> = {};
    for (const key of Object.keys(values) as Array<keyof V>) {
      const own = rules[key] ? validate(values[key], ...(rules[key] as Rule<string>[])) : null;
      out[key] = own ?? rules.cross?.[key]?.(values) ?? null;
    }
    return out;
  }, [values, rules]);

  const isValid = Object.values(errors).every((e) => !e);

  const field = useCallback(
    (key: keyof V) => ({
      value: values[key],
      onChange: (value: string) => setValues((v) => ({ ...v, [key]: value })),
      onBlur: () => setTouched((t) => ({ ...t, [key]: true })),
      error: submitted || touched[key] ? (errors[key] ?? null) : null,
    }),
    [values, touched, submitted, errors],
  );

  const reset = useCallback(() => {
    setValues(initial);
    setTouched({});
    setSubmitted(false);
  }, [initial]);

  /** Marks every field as shown; returns whether the form may be sent. */
  const trySubmit = useCallback(() => {
    setSubmitted(true);
    return isValid;
  }, [isValid]);

  return { values, errors, isValid, field, reset, trySubmit, setValues };
}

/** Spreads a form field onto TextField / TextArea: value, change and blur handlers, translated error. */
export function bindField(
  t: (id: string, values?: Record<string, string | number>) => string,
  field: { value: string; onChange: (v: string) => void; onBlur: () => void; error: RuleResult },
) {
  return { value: field.value, onChange: field.onChange, onBlur: field.onBlur, errorMessage: validationMessage(t, field.error) };
}
