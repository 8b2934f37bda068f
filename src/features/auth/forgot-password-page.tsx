import { useState, type FormEvent } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useT } from '../../i18n/i18n-context';
import { Button, Link } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { AlertDialog } from '../../ui/alert-dialog';
import { rules } from '../../ui/validation';
import { bindField, useForm } from '../../ui/use-form';
import { newPasswordRules } from '../../auth/password-rules';
import { ApiError } from '../../api/errors';
import { PublicLayout } from '../../layout/public-layout';
import { requestPasswordReset, resetPassword } from '../../auth/auth-api';
import { genericErrorText, tooManyRequestsText } from '../../auth/error-text';

type Outcome = { variant: 'success' | 'error'; title: string; text: string; toLogin?: boolean } | null;

function BackToLogin() {
  const t = useT();
  return (
    <Link href="/login" className="mt-4 inline-flex min-h-11 items-center text-primary underline-offset-2 hover:underline">
      {t('auth.backToLogin')}
    </Link>
  );
}

function RequestForm({ onOutcome }: { onOutcome: (o: Outcome) => void }) {
  const t = useT();
  const form = useForm({ email: '' }, { email: rules.email });
  const [pending, setPending] = useState(false);
  const email = form.field('email');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit()) return;
    setPending(true);
    try {
      await requestPasswordReset(form.values.email);
      onOutcome({ variant: 'success', title: t('auth.requestSentTitle'), text: t('auth.requestSentText'), toLogin: true });
    } catch (error) {
      // Spec 1 §8: USER_NOT_FOUND, USER_NOT_VERIFIED, otherwise 'wrongInput'.
      const code = error instanceof ApiError ? error.errorCodeResponse : '';
      const tooMany = tooManyRequestsText(t, error);
      const text =
        tooMany ??
        (code === 'USER_NOT_FOUND'
          ? t('auth.accountNotExisting')
          : code === 'USER_NOT_VERIFIED'
            ? t('auth.accountNotActive')
            : error instanceof ApiError && error.status < 500
              ? t('auth.wrongInput')
              : genericErrorText(t, error));
      onOutcome({ variant: 'error', title: tooMany ? t('errors.tooManyRequestsTitle') : t('auth.mistakeTitle'), text });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <h1 className="text-2xl font-semibold text-fg">{t('auth.forgotTitle')}</h1>
      <p className="mt-1 text-muted">{t('auth.forgotIntro')}</p>
      <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-4">
        <TextField
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          isRequired
          fullWidth
          maxLength={255}
          {...bindField(t, email)}
        />
        <Button type="submit" isPending={pending} className="w-full">
          {t('auth.forgotSubmit')}
        </Button>
      </form>
    </>
  );
}

/** The link in the reset mail lands here with ?token=…; the server checks the token once. */
function ResetForm({ token, onOutcome }: { token: string; onOutcome: (o: Outcome) => void }) {
  const t = useT();
  const form = useForm({ password: '', repeat: '' }, newPasswordRules);
  const [pending, setPending] = useState(false);
  const password = form.field('password');
  const repeat = form.field('repeat');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit()) return;
    setPending(true);
    try {
      await resetPassword(token, form.values.password);
      onOutcome({ variant: 'success', title: t('auth.resetDoneTitle'), text: t('auth.resetDoneText'), toLogin: true });
    } catch (error) {
      const code = error instanceof ApiError ? error.errorCodeResponse : '';
      const text =
        code === 'WEAK_PASSWORD'
          ? t('validation.weakPassword')
          : code === 'TOKEN_INVALID'
            ? t('auth.resetInvalid')
            : genericErrorText(t, error);
      onOutcome({ variant: 'error', title: t('auth.mistakeTitle'), text });
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      <h1 className="text-2xl font-semibold text-fg">{t('auth.resetTitle')}</h1>
      <p className="mt-1 text-muted">{t('auth.resetIntro')}</p>
      <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-4">
        <TextField
          label={t('auth.newPassword')}
          type="password"
          autoComplete="new-password"
          isRequired
          fullWidth
          description={t('settings.passwordRules')}
          {...bindField(t, password)}
        />
        <TextField
          label={t('auth.repeatPassword')}
          type="password"
          autoComplete="new-password"
          isRequired
          fullWidth
          {...bindField(t, repeat)}
        />
        <Button type="submit" isPending={pending} className="w-full">
          {t('auth.resetSubmit')}
        </Button>
      </form>
    </>
  );
}

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const { token }: { token?: string } = useSearch({ strict: false });
  const [outcome, setOutcome] = useState<Outcome>(null);

  return (
    <PublicLayout>
      {token ? <ResetForm token={token} onOutcome={setOutcome} /> : <RequestForm onOutcome={setOutcome} />}
      <BackToLogin />
      <AlertDialog
        isOpen={outcome !== null}
        variant={outcome?.variant ?? 'success'}
        title={outcome?.title}
        onClose={() => {
          const toLogin = outcome?.toLogin;
          setOutcome(null);
          if (toLogin) void navigate({ to: '/login' });
        }}
      >
        {outcome?.text}
      </AlertDialog>
    </PublicLayout>
  );
}
