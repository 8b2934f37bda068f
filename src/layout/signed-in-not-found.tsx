import { QueryRuntime } from '../offline/query-runtime';
import { useT } from '../i18n/i18n-context';
import { LinkButton } from '../ui/button';
import { AppShell } from './app-shell';

/**
 * A signed-in user on an address that does not exist stays in the app: the menu, the top bar and
 * a way back to the cockpit, instead of the public page that offers only the sign-in.
 */
export function SignedInNotFound() {
  const t = useT();
  return (
    <QueryRuntime>
      <AppShell>
        <section className="flex flex-col items-start gap-2 py-8">
          <p aria-hidden="true" className="text-5xl font-bold text-primary">
            404
          </p>
          <h1 className="text-2xl font-semibold text-fg">{t('notFound.title')}</h1>
          <p className="text-muted">{t('notFound.signedInText')}</p>
          <LinkButton href="/cockpit" variant="primary" className="mt-4">
            {t('notFound.toCockpit')}
          </LinkButton>
        </section>
      </AppShell>
    </QueryRuntime>
  );
}
