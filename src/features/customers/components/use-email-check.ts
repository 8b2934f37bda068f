import { useState } from 'react';
import type { useForm } from '../../../ui/use-form';
import { isEmailFree } from '../api/customer-queries';
import type { UserValues } from '../customer-form';

type EmailCheck = { email: string; status: 'checking' | 'free' | 'taken' | 'failed' } | null;

const normalised = (email: string) => email.trim().toLowerCase();

/**
 * Whether the typed e-mail is still free, asked when the field is left (issue 23): a taken address
 * shows at the field and holds Next, before the whole wizard is sent. A failed check holds nothing:
 * the server checks again when the wizard is sent. A refusal marks the address too (`markTaken`).
 */
export function useEmailCheck(form: ReturnType<typeof useForm<UserValues>>) {
  const [check, setCheck] = useState<EmailCheck>(null);
  const email = normalised(form.values.email);
  const current = check?.email === email ? check : null;

  const run = async () => {
    if (!email || form.errors.email || (current && current.status !== 'failed')) return;
    setCheck({ email, status: 'checking' });
    const status: 'free' | 'taken' | 'failed' = await isEmailFree(email).then(
      (free) => (free ? 'free' : 'taken'),
      () => 'failed',
    );
    // Only the answer for what is typed now counts (the user may have typed on meanwhile).
    setCheck((c) => (c?.email === email ? { email, status } : c));
  };
  return {
    status: current?.status ?? null,
    run,
    markTaken: (taken: string) => setCheck({ email: normalised(taken), status: 'taken' }),
    reset: () => setCheck(null),
  };
}

export type EmailCheckState = ReturnType<typeof useEmailCheck>;
