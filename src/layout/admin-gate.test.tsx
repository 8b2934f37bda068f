import { cleanup, screen } from '@testing-library/react';
import { RouterProvider, createMemoryHistory, createRootRouteWithContext, createRoute, createRouter } from '@tanstack/react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { AdminOnlyError, GatedRouteError, adminOnly } from './admin-gate';

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
    // The router reports an error thrown by beforeLoad on the console (in development): here that is
    // the gate working, so it is checked rather than printed; anything else logged fails the test.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { router, loader } = gatedApp(false);
    await renderWithI18n(<RouterProvider router={router as never} />);
    expect(await screen.findByText('Diese Seite ist Plattform-Administratoren vorbehalten.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('RFID-Verwaltung');
    expect(screen.queryByText('RFID-Liste')).toBeNull();
    expect(loader).not.toHaveBeenCalled();
    for (const call of [...logged.mock.calls, ...warned.mock.calls]) {
      expect(
        call.some((arg) => arg instanceof AdminOnlyError || /^Warning: Error in route match: \/rfid/.test(String(arg))),
        String(call),
      ).toBe(true);
    }
    logged.mockRestore();
    warned.mockRestore();
  });

  it('lets an admin in', async () => {
    const { router, loader } = gatedApp(true);
    await renderWithI18n(<RouterProvider router={router as never} />);
    expect(await screen.findByText('RFID-Liste')).toBeTruthy();
    expect(loader).toHaveBeenCalledTimes(1);
  });
});
