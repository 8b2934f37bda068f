import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import type { RouterContext } from '../router-context';
import { NotFoundPage } from '../features/public/not-found-page';
import { useSession } from '../auth/session-context';
import { loadSignedInMessages } from '../i18n/messages';
import { AppNotices } from '../layout/app-notices';
import { FullPageSpinner } from '../layout/full-page-spinner';
import { ScreenTitle } from '../layout/screen-title';
import { WriteOverlay } from '../layout/write-overlay';

// The root route is not code-split by the router plugin: the signed-in shell loads only when needed,
// with the signed-in screens' messages.
const SignedInNotFound = lazy(() =>
  Promise.all([import('../layout/signed-in-not-found'), loadSignedInMessages()]).then(([m]) => ({ default: m.SignedInNotFound })),
);

/** Inside the shell for a signed-in user, the public page otherwise. */
function RootNotFound() {
  const session = useSession();
  if (session.status === 'pending') return <FullPageSpinner />;
  if (session.status !== 'authenticated') return <NotFoundPage />;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <SignedInNotFound />
    </Suspense>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <ScreenTitle />
      <Outlet />
      <AppNotices />
      <WriteOverlay />
    </>
  ),
  notFoundComponent: RootNotFound,
});
