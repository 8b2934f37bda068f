import { useT } from '../i18n/i18n-context';
import { Spinner } from '../ui/spinner';

/** Spec 1 §2: while authentication is pending the pages are hidden behind a spinner. */
export function FullPageSpinner() {
  const t = useT();
  return (
    <div className="flex min-h-dvh items-center justify-center bg-bg" data-testid="auth-pending">
      <Spinner size="lg" label={t('auth.checking')} showLabel />
    </div>
  );
}
