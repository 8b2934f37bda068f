import { Suspense, lazy, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearch } from '@tanstack/react-router';
import { useT } from '../../i18n/i18n-context';
import { Button, Link } from '../../ui/button';
import { TextField } from '../../ui/text-field';
import { signInRules } from '../../ui/field-rules';
import { bindField, useForm } from '../../ui/use-form';
import { PublicLayout } from '../../layout/public-layout';
import { useSession } from '../../auth/session-context';
import { login } from '../../auth/login-api';
import { clearSignedOutNote, readSignedOutNote } from '../../offline/signed-out-note';

const loginRules = signInRules;

// The dialog (react-aria's modal, overlay and focus scope) and what it says are needed only once a
// sign-in fails: they load off the first route, fetched when the form is sent, so they are there
// when the answer comes.
const loadAlertDialog = () => import('../../ui/alert-dialog');
const loadFailure = () => import('./login-failure');
const AlertDialog = lazy(() => loadAlertDialog().then((m) => ({ default: m.AlertDialog })));

export function LoginPage() {
  const t = useT();
  const session = useSession();
  const navigate = useNavigate();
  const search: { redirect?: string } = useSearch({ strict: false });
  const form = useForm({ email: '', password: '' }, loginRules);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ title: string; text: string } | null>(null);
  // Stays mounted after the first failure, so closing animates like any dialog.
  const [dialogUsed, setDialogUsed] = useState(false);
  if (failure && !dialogUsed) setDialogUsed(true);
  const target = search.redirect ?? '/cockpit';
  // Ended by the server (e.g. signed out on another device): why, and what waits on this device.
  const [signedOut] = useState(readSignedOutNote);

  if (session.status === 'authenticated' && !pending) return <Navigate to={target} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit()) return;
    void Promise.all([loadAlertDialog(), loadFailure()]).catch(() => undefined);
    setPending(true);
    try {
      await login(form.values.email, form.values.password);
      clearSignedOutNote();
      await navigate({ to: target, replace: true });
    } catch (error) {
      setFailure(
        await loadFailure().then(
          (m) => m.loginFailure(t, error),
          // The part of the app that words it did not load (offline, not stored yet).
          () => ({ title: t('auth.mistakeTitle'), text: t('errors.offline') }),
        ),
      );
    } finally {
      setPending(false);
    }
  };

  const email = form.field('email');
  const password = form.field('password');
  return (
    <PublicLayout>
      <h1 className="text-2xl font-semibold text-fg">{t('auth.loginTitle')}</h1>
      <p className="mt-1 text-muted">{t('auth.loginIntro')}</p>
      {signedOut && (
        <div
          role="status"
          data-testid="signed-out-note"
          className="mt-4 rounded-lg border border-warning bg-warning-soft px-4 py-3 text-fg"
        >
          <p className="font-semibold">{t('auth.signedOut.title')}</p>
          <p>{t('auth.signedOut.text')}</p>
          {signedOut.waiting > 0 && <p className="mt-1">{t('auth.signedOut.waiting', { count: signedOut.waiting })}</p>}
        </div>
      )}
      <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-4">
        <TextField
          label={t('auth.email')}
          type="email"
          name="email"
          autoComplete="username"
          isRequired
          fullWidth
          maxLength={255}
          {...bindField(t, email)}
        />
        <TextField
          label={t('auth.password')}
          type="password"
          name="password"
          autoComplete="current-password"
          isRequired
          fullWidth
          maxLength={255}
          {...bindField(t, password)}
        />
        <Button type="submit" isPending={pending} className="mt-2 w-full">
          {t('auth.login')}
        </Button>
      </form>
      <Link href="/forgot-password" className="mt-4 inline-flex min-h-11 items-center text-primary underline-offset-2 hover:underline">
        {t('auth.forgotLink')}
      </Link>
      {dialogUsed && (
        <Suspense fallback={null}>
          <AlertDialog isOpen={failure !== null} onClose={() => setFailure(null)} variant="error" title={failure?.title}>
            {failure?.text}
          </AlertDialog>
        </Suspense>
      )}
    </PublicLayout>
  );
}
