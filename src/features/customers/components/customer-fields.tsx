import { useEffect } from 'react';
import { useT, type TranslateFn } from '../../../i18n/i18n-context';
import type { FailureMessage } from '../../../layout/create-wizard';
import { TextField } from '../../../ui/text-field';
import { bindField, type useForm } from '../../../ui/use-form';
import { createFailure, type Entry, type UserValues } from '../customer-form';
import type { EmailCheckState } from './use-email-check';

/** A summary of label/value pairs (the confirm steps). */
export function Summary({ intro, entries }: { intro: string; entries: Entry[] }) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{intro}</p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]" data-testid="confirm-summary">
        {entries.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted">{label}</dt>
            <dd className="min-w-0 break-words text-fg">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * First name, last name, e-mail and role of a dashboard user (spec 3 §2, §5). The form validates on
 * load: every missing value says so at once, before anything is typed.
 */
export function UserFields({
  form,
  autoFocus,
  emailCheck,
}: {
  form: ReturnType<typeof useForm<UserValues>>;
  autoFocus?: boolean;
  /** The e-mail is checked with the server when the field is left. */
  emailCheck: EmailCheckState;
}) {
  const t = useT();
  const email = bindField(t, form.field('email'));
  const { trySubmit } = form;
  useEffect(() => {
    trySubmit();
    // Once, when the step shows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <TextField
        label={t('customers.fields.firstName')}
        isRequired
        fullWidth
        autoFocus={autoFocus}
        autoComplete="off"
        {...bindField(t, form.field('firstName'))}
      />
      <TextField label={t('customers.fields.lastName')} isRequired fullWidth autoComplete="off" {...bindField(t, form.field('lastName'))} />
      <TextField
        label={t('customers.fields.email')}
        type="email"
        isRequired
        fullWidth
        autoComplete="off"
        {...email}
        onBlur={() => {
          email.onBlur();
          void emailCheck.run();
        }}
        errorMessage={email.errorMessage ?? (emailCheck.status === 'taken' ? t('customers.errors.emailInUse') : undefined)}
        description={emailCheck.status === 'checking' ? t('customers.wizard.emailChecking') : undefined}
      />
      <TextField
        label={t('customers.fields.role')}
        description={t('customers.fields.roleHint')}
        isRequired
        fullWidth
        autoComplete="off"
        {...bindField(t, form.field('role'))}
      />
    </div>
  );
}

/**
 * How a refused creation reads (spec 3 §8): e-mail or customer number in use, else 'Mistake'. The
 * wizard stays open with what was entered (issue 23); a taken e-mail is marked at its field.
 */
export function failureMessage(t: TranslateFn, error: unknown, emailCheck?: { markTaken: () => void }): FailureMessage {
  const failure = createFailure(error);
  if (failure === 'emailInUse') emailCheck?.markTaken();
  if (failure === 'mistake') return { title: t('customers.errors.mistakeTitle'), body: <p>{t('customers.errors.mistake')}</p> };
  return t(`customers.errors.${failure}`);
}
