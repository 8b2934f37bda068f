import { Outlet, createFileRoute, redirect, useNavigate, useLocation } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { redirectTarget } from '../auth/redirect-target';
import { loadSignedInMessages } from '../i18n/messages';
import { AppShell } from '../layout/app-shell';
import { useSession } from '../auth/session-context';
import { FullPageSpinner } from '../layout/full-page-spinner';
import { QueryRuntime } from '../offline/query-runtime';

function GuardedShell() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const leaving = useRef(false);
  // Sign-out, an expired session or a sign-out in another tab: leave the signed-in pages at once,
  // once (the location changes while the sign-in page loads). After an expired session the same
  // person signs in again and comes back here; after a logout the next person starts afresh.
  useEffect(() => {
    if (session.status !== 'unauthenticated' || leaving.current) return;
    leaving.current = true;
    const redirect = session.endedBy === 'session-expired' ? redirectTarget(location.href) : undefined;
    void navigate({ to: '/login', search: redirect ? { redirect } : {}, replace: true });
  }, [session.status, session.endedBy, navigate, location.href]);
  if (session.status !== 'authenticated') return <FullPageSpinner />;
  return (
    <QueryRuntime>
      <AppShell>
        <Outlet />
      </AppShell>
    </QueryRuntime>
  );
}

export const Route = createFileRoute('/_app')({
  beforeLoad: async ({ context, location }) => {
    const session = await context.session.ready();
    if (session.status !== 'authenticated') {
      const target = redirectTarget(location.href);
      throw redirect({ to: '/login', search: target ? { redirect: target } : {} });
    }
    // The kept offline copy of the cache first, so every loader below reads it before the network.
    // Write kinds too, before the outbox replays anything (src/write-kinds.ts), and the signed-in
    // screens' messages (the first route only carries the signed-out ones: i18n/message-parts.ts).
    const [{ restoreCache }] = await Promise.all([import('../offline/query-runtime'), import('../write-kinds'), loadSignedInMessages()]);
    await restoreCache();
    return { session };
  },
  pendingComponent: FullPageSpinner,
  pendingMs: 0,
  // The router keeps a pending component up for at least 500 ms by default, so a reload with the
  // data at hand sat idle behind the spinner; the spinner goes as soon as the screen can show.
  pendingMinMs: 0,
  component: GuardedShell,
});
