import { Outlet, createRootRouteWithContext } from '@tanstack/react-router';
import type { RouterContext } from '../router';
import { NotFoundPage } from '../features/public/not-found-page';
import { AppNotices } from '../features/shell/app-notices';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <Outlet />
      <AppNotices />
    </>
  ),
  notFoundComponent: NotFoundPage,
});
