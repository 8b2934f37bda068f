import { cleanup, screen } from '@testing-library/react';
import { RouterProvider, createMemoryHistory, createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { GatedRouteError, adminOnly } from './admin-gate';

afterEach(cleanup);

type Context = { session: { isAdmin: boolean } };

function gatedApp(isAdmin: boolean) {
  const loader = vi.fn(() => 'rows');
  const rootRoute = createRootRouteWithContext<Context>()();
  const page = createRoute({
    getParentRoute: () => rootRoute,
    path: '/rfid',
    beforeLoad: adminOnly('rfid.title'),
    loader,
    component: () => <p>RFID-Liste</p>,
  });
  const router = createRouter({
    routeTree: rootRoute.addChildren([page]),
    history: createMemoryHistory({ initialEntries: ['/rfid'] }),
    context: { session: { isAdmin } },
    defaultErrorComponent: GatedRouteError,
  });
  return { router, loader };
}

describe('adminOnly', () => {
  it("shows anyone but an admin the admin-only screen under the page's title, and loads nothing", async () => {
    const { router, loader } = gatedApp(false);
    await renderWithI18n(<RouterProvider router={router as never} />);
    expect(await screen.findByText('Diese Seite ist Plattform-Administratoren vorbehalten.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('RFID-Verwaltung');
    expect(screen.queryByText('RFID-Liste')).toBeNull();
    expect(loader).not.toHaveBeenCalled();
  });

  it('lets an admin in', async () => {
    const { router, loader } = gatedApp(true);
    await renderWithI18n(<RouterProvider router={router as never} />);
    expect(await screen.findByText('RFID-Liste')).toBeTruthy();
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
