import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { NotFoundPage } from '../features/public/not-found-page';
import { AppNotices } from '../layout/app-notices';
import { WriteOverlay } from '../layout/write-overlay';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <AppNotices />
      <WriteOverlay />
    </>
  ),
  notFoundComponent: NotFoundPage,
});
