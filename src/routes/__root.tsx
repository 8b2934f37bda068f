import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { NotFoundPage } from '../features/public/not-found-page';
import { useSession } from '../auth/session-context';
import { AppNotices } from '../layout/app-notices';
import { FullPageSpinner } from '../layout/full-page-spinner';
import { SignedInNotFound } from '../layout/signed-in-not-found';
import { WriteOverlay } from '../layout/write-overlay';

/** Inside the shell for a signed-in user, the public page otherwise (split off the entry by the router plugin). */
function RootNotFound() {
  const session = useSession();
  if (session.status === 'pending') return <FullPageSpinner />;
  return session.status === 'authenticated' ? <SignedInNotFound /> : <NotFoundPage />;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <AppNotices />
      <WriteOverlay />
    </>
  ),
  notFoundComponent: RootNotFound,
});
