import { act, fireEvent, screen } from '@testing-library/react';
import {
  Outlet,
  RouterProvider,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  useNavigate,
} from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import de from '../locales/de.json';
import en from '../locales/en.json';
import { useLocale } from './i18n/i18n-context';
import { loadSignedInMessages } from './i18n/messages';
import { renderWithI18n } from './i18n/test-utils';
import { SCREEN_TITLES, ScreenTitle } from './layout/screen-title';
import { routeTree } from './route-tree.gen';

/** The flat message table the app loads (the build flattens the locale files). */
const messages = { de: de as unknown as Record<string, string>, en: en as unknown as Record<string, string> };

/** Every route that shows a screen of its own: a component and no child routes (layouts hold the screens). */
function screens(): string[] {
  const router = createRouter({ routeTree, context: {} as never });
  return Object.values(router.routesById as unknown as Record<string, { id: string; options: { component?: unknown }; children?: unknown }>)
    .filter((route) => !route.children && route.options.component)
    .map((route) => route.id);
}

describe('screen titles (WCAG 2.4.2)', () => {
  const ids = screens();

  it('name every screen of the route tree, in German and English', () => {
    expect(ids.length).toBeGreaterThan(15);
    const untitled = ids.filter((id) => !SCREEN_TITLES[id]);
    expect(untitled).toEqual([]);
    for (const title of [...Object.values(SCREEN_TITLES), 'notFound']) {
      expect(messages.de[`screenTitle.${title}`], title).toBeTruthy();
      expect(messages.en[`screenTitle.${title}`], title).toBeTruthy();
    }
  });

  it('name no route that is not there', () => {
    expect(Object.keys(SCREEN_TITLES).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('differ between the screens a user moves between', () => {
    const main = ['/_app/cockpit', '/_app/standorte/', '/_app/stationen/', '/_app/nutzer/', '/_app/betreiber/', '/_app/einstellungen'];
    const titles = main.map((id) => messages.de[`screenTitle.${SCREEN_TITLES[id]}`]);
    expect(new Set(titles).size).toBe(main.length);
  });
});

function Controls() {
  const navigate = useNavigate();
  const { setLocale } = useLocale();
  return (
    <>
      <button onClick={() => void navigate({ to: '/stationen' })}>stations</button>
      <button onClick={() => void navigate({ to: '/nowhere' as never })}>nowhere</button>
      <button onClick={() => setLocale('en')}>english</button>
    </>
  );
}

describe('ScreenTitle', () => {
  it('sets document.title on navigation and on a language switch', async () => {
    await loadSignedInMessages('en');
    // A small tree with the real route ids' shape ('/_app/stationen/' is the list's id in the app).
    const root = createRootRoute({
      component: () => (
        <>
          <ScreenTitle />
          <Controls />
          <Outlet />
        </>
      ),
      notFoundComponent: () => null,
    });
    const app = createRoute({ getParentRoute: () => root, id: '_app' });
    const cockpit = createRoute({ getParentRoute: () => app, path: 'cockpit', component: () => null });
    const stations = createRoute({ getParentRoute: () => app, path: 'stationen/', component: () => null });
    const router = createRouter({
      routeTree: root.addChildren([app.addChildren([cockpit, stations])]),
      history: createMemoryHistory({ initialEntries: ['/cockpit'] }),
    });
    await act(async () => {
      await renderWithI18n(<RouterProvider router={router} />);
    });
    await act(() => router.load());
    expect(document.title).toBe('Cockpit · CPO Cockpit');
    await act(async () => fireEvent.click(screen.getByText('stations')));
    expect(document.title).toBe('Ladestationen · CPO Cockpit');
    await act(async () => fireEvent.click(screen.getByText('english')));
    expect(document.title).toBe('Charging stations · CPO Cockpit');
    await act(async () => fireEvent.click(screen.getByText('nowhere')));
    expect(document.title).toBe('Page not found · CPO Cockpit');
  });
});
