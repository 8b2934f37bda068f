import './styles.css';
import { StrictMode, startTransition, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { loadRuntimeConfig } from './api/config';
import { I18nProvider } from './i18n/i18n-provider';
import { loadMessages, loadSignedInMessages } from './i18n/messages';
import { readStoredLocale } from './i18n/locale';
import { createSessionStore } from './auth/session';
import { SessionProvider } from './auth/session-context';
import { isAccessTokenValid, restoreTokens } from './auth/token-store';
import { createAppRouter } from './router';
import { NavigationProvider } from './ui/navigation';

type AppRouter = ReturnType<typeof createAppRouter>;

/** Lets the kit's links (and, in the signed-in shell, react-aria's) navigate through the router instead of reloading the page. */
function App({ router }: { router: AppRouter }) {
  const navigate = useMemo(
    () => (href: string) => {
      void router.navigate({ href });
    },
    [router],
  );
  return (
    <NavigationProvider navigate={navigate}>
      <RouterProvider router={router} />
    </NavigationProvider>
  );
}

/**
 * A reload of a signed-in page with a valid session: what the signed-in layout would only start
 * after its session check (the offline copy of the cache, the write kinds) and what the router
 * would fetch one route after the other (the layout's and the page's chunks) start now, side by
 * side. Only with a valid access token, so the session is decided without the network and the
 * restored copy is this user's (persister.ts checks the owner); the layout still awaits both.
 */
function warmSignedInStart(router: AppRouter) {
  if (!isAccessTokenValid()) return;
  const matches = router.matchRoutes(router.latestLocation);
  if (!matches.some((m) => m.routeId === '/_app')) return;
  void signedInModules?.then(([runtime]) => runtime.restoreCache()).catch(() => undefined);
  for (const match of matches)
    void router.loadRouteChunk(router.routesById[match.routeId as keyof typeof router.routesById])?.catch(() => undefined);
}

// Signed in (the tokens are in localStorage): the modules and messages the signed-in layout awaits
// load while the signed-out messages and the durable tokens are read.
const signedInModules = isAccessTokenValid()
  ? Promise.all([import('./offline/query-runtime'), import('./write-kinds'), loadSignedInMessages()])
  : null;

// The first screen needs the messages of the chosen language and the session (from its durable copy
// when the browser lost localStorage); the runtime config is fetched in parallel.
void loadRuntimeConfig().catch(() => undefined);
void Promise.allSettled([loadMessages(readStoredLocale()), restoreTokens()]).then(() => {
  const session = createSessionStore();
  const router = createAppRouter({ session });
  warmSignedInStart(router);
  const root = createRoot(document.getElementById('root')!);
  // As a transition, React renders the first screen in slices of ~5 ms with the browser free in
  // between, instead of one long task that holds up input (Lighthouse's total blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <I18nProvider>
          <SessionProvider store={session}>
            <App router={router} />
          </SessionProvider>
        </I18nProvider>
      </StrictMode>,
    ),
  );
  // After the first render and off the first route (it loads with the notices that offer an update).
  void import('./offline/sw-register').then((m) => m.registerServiceWorker()).catch(() => undefined);
});
