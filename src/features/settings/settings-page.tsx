import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { useT } from '../../i18n/i18n-context';
import { Accordion, AccordionItem } from '../../ui/accordion';
import { AlertDialog } from '../../ui/alert-dialog';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { TextField } from '../../ui/text-field';
import { differentEmail, emailsMatch, required, rules } from '../../ui/validation';
import { bindField, useForm } from '../../ui/use-form';
import { newPasswordRules } from '../../auth/password-rules';
import { ApiError } from '../../api/errors';
import { refreshAccessToken } from '../../api/client';
import { useSession } from '../../auth/session-context';
import { changeEmail, changePassword } from '../../auth/auth-api';
import { genericErrorText } from '../../auth/error-text';
import { useStoragePersistence } from '../../offline/storage-persistence';

type Outcome = { variant: 'success' | 'error' | 'warning'; title: string; text: string; reload?: boolean } | null;

function Facts({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    // One label width for every card, so the values line up across the accordions.
    <dl className="grid grid-cols-1 gap-x-6 gap-y-3 sm:grid-cols-[12rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-sm font-medium text-muted">{label}</dt>
          <dd className="m-0 break-words text-fg">{value || '–'}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The current password (the server asks for it, so an access token alone cannot change it), then the new one twice. */
const passwordChangeRules = { ...newPasswordRules, current: [required] };

function PasswordForm({ username, onOutcome }: { username: string; onOutcome: (o: Outcome) => void }) {
  const t = useT();
  const form = useForm({ current: '', password: '', repeat: '' }, passwordChangeRules);
  const [pending, setPending] = useState(false);
  const current = form.field('current');
  const password = form.field('password');
  const repeat = form.field('repeat');
  const filled = form.values.current !== '' && form.values.password !== '' && form.values.repeat !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit()) return;
    setPending(true);
    try {
      await changePassword(username, form.values.current, form.values.password);
      form.reset();
      onOutcome({ variant: 'success', title: t('settings.passwordChangedTitle'), text: t('settings.passwordChanged') });
    } catch (error) {
      const code = error instanceof ApiError ? error.errorCodeResponse : undefined;
      const text =
        code === 'WEAK_PASSWORD'
          ? t('validation.weakPassword')
          : code === 'WRONG_CURRENT_PASSWORD'
            ? t('settings.wrongCurrentPassword')
            : genericErrorText(t, error);
      onOutcome({ variant: 'error', title: t('errors.title'), text });
    } finally {
      setPending(false);
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-muted">{t('settings.passwordRules')}</p>
      <TextField
        label={t('settings.currentPassword')}
        type="password"
        autoComplete="current-password"
        isRequired
        maxLength={255}
        {...bindField(t, current)}
      />
      <TextField label={t('settings.newPassword')} type="password" autoComplete="new-password" isRequired {...bindField(t, password)} />
      <TextField label={t('settings.repeatPassword')} type="password" autoComplete="new-password" isRequired {...bindField(t, repeat)} />
      <div>
        <Button type="submit" isDisabled={!filled} isPending={pending}>
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}

function EmailForm({ current, onOutcome }: { current: string; onOutcome: (o: Outcome) => void }) {
  const t = useT();
  const formRules = useMemo(
    () => ({
      email: rules.email,
      repeat: rules.email,
      cross: {
        email: (v: { email: string }) => differentEmail(current)(v.email),
        repeat: (v: { email: string; repeat: string }) => emailsMatch(v.email)(v.repeat),
      },
    }),
    [current],
  );
  const form = useForm({ email: '', repeat: '' }, formRules);
  const [pending, setPending] = useState(false);
  const email = form.field('email');
  const repeat = form.field('repeat');
  const ready = form.values.email !== '' && form.values.email.trim().toLowerCase() === form.values.repeat.trim().toLowerCase();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit()) return;
    setPending(true);
    try {
      await changeEmail(current, form.values.email);
      // Spec 1 §4: the claims carry the e-mail, so the tokens are exchanged and the page reloaded.
      await refreshAccessToken();
      onOutcome({ variant: 'success', title: t('settings.emailChangedTitle'), text: form.values.email.trim(), reload: true });
    } catch (error) {
      if (error instanceof ApiError && error.errorCodeResponse === 'DUPLICATED_EMAIL') {
        onOutcome({ variant: 'warning', title: t('settings.duplicateEmailTitle'), text: t('settings.duplicateEmail') });
      } else if (error instanceof ApiError && error.errorCodeResponse === 'SAME_EMAIL') {
        onOutcome({ variant: 'warning', title: t('errors.title'), text: t('validation.newEmailSameAsOld') });
      } else {
        onOutcome({ variant: 'error', title: t('errors.title'), text: genericErrorText(t, error) });
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-muted">{t('settings.currentEmail', { email: current })}</p>
      <TextField label={t('settings.newEmail')} type="email" autoComplete="email" isRequired maxLength={255} {...bindField(t, email)} />
      <TextField label={t('settings.repeatEmail')} type="email" autoComplete="email" isRequired maxLength={255} {...bindField(t, repeat)} />
      <div>
        <Button type="submit" isDisabled={!ready} isPending={pending}>
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}

export function SettingsPage() {
  const t = useT();
  const { claims, isAdmin } = useSession();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const storage = useStoragePersistence();
  if (!claims) return null;
  const address = [
    claims.c_o && `c/o ${claims.c_o}`,
    [claims.street_name, claims.house_number].filter(Boolean).join(' '),
    [claims.postcode, claims.city].filter(Boolean).join(' '),
    claims.country,
  ]
    .filter(Boolean)
    .join(', ');

  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader title={t('settings.title')} />
      <Accordion allowsMultipleExpanded defaultExpandedKeys={['user']}>
        <AccordionItem id="user" headingLevel={2} title={t('settings.userData')}>
          <Facts
            rows={[
              [t('settings.name'), claims.name],
              [t('settings.email'), claims.email],
              // The role is the user's title in their company (data, as entered); the access is ours to word.
              [t('settings.role'), claims.role_company],
              ...(isAdmin ? ([[t('settings.access'), t('roles.admin')]] as Array<[string, ReactNode]>) : []),
            ]}
          />
        </AccordionItem>
        <AccordionItem id="company" headingLevel={2} title={t('settings.companyData')}>
          <Facts
            rows={[
              [t('settings.customerId'), claims.customer_id],
              [t('settings.customerType'), claims.customer_type === 'Partner' ? t('roles.partner') : t('roles.operator')],
              [t('settings.companyName'), claims.company_name],
              [t('settings.address'), address],
            ]}
          />
        </AccordionItem>
        <AccordionItem id="device" headingLevel={2} title={t('settings.device')}>
          <Facts rows={[[t('settings.storage'), storage ? t(`settings.storageState.${storage}`) : '…']]} />
        </AccordionItem>
        <AccordionItem id="password" headingLevel={2} title={t('settings.changePassword')}>
          <PasswordForm username={claims.email} onOutcome={setOutcome} />
        </AccordionItem>
        <AccordionItem id="email" headingLevel={2} title={t('settings.changeEmail')}>
          <EmailForm current={claims.email} onOutcome={setOutcome} />
        </AccordionItem>
      </Accordion>
      <p className="mt-6 text-sm text-muted" data-testid="app-version">
        {t('settings.version', { version: __APP_VERSION__ })}
      </p>
      <AlertDialog
        isOpen={outcome !== null}
        variant={outcome?.variant ?? 'success'}
        title={outcome?.title}
        onClose={() => {
          const reload = outcome?.reload;
          setOutcome(null);
          if (reload) window.location.reload();
        }}
      >
        {outcome?.text}
      </AlertDialog>
    </div>
  );
}
