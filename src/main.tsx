import './styles.css';
import { StrictMode, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from '@tanstack/react-router';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { loadRuntimeConfig } from './api/config';
import { registerServiceWorker } from './offline/sw-register';
import { I18nProvider } from './i18n/i18n-provider';
import { loadMessages } from './i18n/messages';
import { readStoredLocale } from './i18n/locale';
import { createSessionStore } from './auth/session';
import { SessionProvider } from './auth/session-context';
import { restoreTokens } from './auth/token-store';
import { createAppRouter } from './router';

type AppRouter = ReturnType<typeof createAppRouter>;

/** Lets react-aria links and menu items navigate through the router instead of reloading the page. */
function App({ router }: { router: AppRouter }) {
  const navigate = useMemo(
    () => (href: string) => {
      void router.navigate({ href });
    },
    [router],
  );
  return (
    <AriaRouterProvider navigate={navigate} useHref={(href) => router.buildLocation({ to: href }).href}>
      <RouterProvider router={router} />
    </AriaRouterProvider>
  );
}

// The first screen needs the messages of the chosen language and the session (from its durable copy
// when the browser lost localStorage); the runtime config is fetched in parallel.
void loadRuntimeConfig().catch(() => undefined);
void Promise.allSettled([loadMessages(readStoredLocale()), restoreTokens()]).then(() => {
  const session = createSessionStore();
  const router = createAppRouter({ session });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider>
        <SessionProvider store={session}>
          <App router={router} />
        </SessionProvider>
      </I18nProvider>
    </StrictMode>,
  );
  void registerServiceWorker();
});
