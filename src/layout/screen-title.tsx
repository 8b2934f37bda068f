import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useT } from '../i18n/i18n-context';

/**
 * The name of each screen, by the id of the route that shows it (WCAG 2.4.2: a page title that
 * says where the user is). `screen-title.test.ts` walks the route tree: every screen has one, in
 * both languages. A route id missing here (a redirect, a layout) names no screen.
 */
export const SCREEN_TITLES: Readonly<Record<string, string>> = {
  '/login': 'login',
  '/einloggen': 'login',
  '/forgot-password': 'forgotPassword',
  '/passwort-vergessen': 'forgotPassword',
  '/_app/cockpit': 'cockpit',
  '/_app/einstellungen': 'settings',
  '/_app/rfid': 'rfid',
  '/_app/rechnungen': 'bills',
  '/_app/downloadcenter': 'downloads',
  '/_app/support': 'support',
  '/_app/betreiber/': 'operators',
  '/_app/betreiber/$details': 'operator',
  '/_app/customers/': 'customers',
  '/_app/customers/$customerId': 'customer',
  '/_app/nutzer/': 'users',
  '/_app/nutzer/$id': 'user',
  '/_app/standorte/': 'locations',
  '/_app/standorte/$details': 'location',
  '/_app/stationen/': 'stations',
  '/_app/stationen/$stationId': 'station',
  '/stripesepa/configure/success/$checkoutSessionId': 'stripe',
  '/stripesepa/reconfigure/success/$checkoutSessionId': 'stripe',
};

interface TitleMatch {
  routeId: string;
  status?: string;
  /** The router's mark on the match that shows the not-found component (a private field in 1.17x). */
  _notFound?: boolean;
  globalNotFound?: boolean;
}

/** The screen's title message id: the deepest matched route that names a screen, or 'not found'. */
export function screenTitleId(matches: readonly TitleMatch[]): string | null {
  if (matches.some((m) => m.status === 'notFound' || m._notFound || m.globalNotFound)) return 'screenTitle.notFound';
  for (let i = matches.length - 1; i >= 0; i--) {
    const title = SCREEN_TITLES[matches[i]!.routeId];
    if (title) return `screenTitle.${title}`;
  }
  return null;
}

/** Keeps `document.title` on 'Screen · CPO Cockpit' in the language of the moment. */
export function ScreenTitle() {
  const t = useT();
  const id = useRouterState({ select: (s) => screenTitleId(s.matches) });
  useEffect(() => {
    const app = t('app.name');
    document.title = id ? `${t(id)} · ${app}` : app;
  }, [id, t]);
  return null;
}
