import { Outlet, createFileRoute, redirect, useNavigate, useLocation } from '@tanstack/react-router';
import { useEffect } from 'react';
import { AppShell } from '../layout/app-shell';
import { useSession } from '../auth/session-context';
import { FullPageSpinner } from '../layout/full-page-spinner';
import { QueryRuntime } from '../offline/query-runtime';

function GuardedShell() {
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  // Sign-out, an expired session or a sign-out in another tab: leave the signed-in pages at once.
  useEffect(() => {
    if (session.status === 'unauthenticated') {
      void navigate({ to: '/login', search: { redirect: location.href }, replace: true });
    }
  }, [session.status, navigate, location.href]);
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
      throw redirect({ to: '/login', search: { redirect: location.href } });
    }
    // The kept offline copy of the cache first, so every loader below reads it before the network.
    // Write kinds too, before the outbox replays anything (src/write-kinds.ts).
    const [{ restoreCache }] = await Promise.all([import('../offline/query-runtime'), import('../write-kinds')]);
    await restoreCache();
    return { session };
  },
  pendingComponent: FullPageSpinner,
  pendingMs: 0,
  component: GuardedShell,
});
