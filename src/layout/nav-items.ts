import type { Session } from '../auth/session';

export type NavKey = 'cockpit' | 'locations' | 'stations' | 'users' | 'bills' | 'downloads' | 'settings' | 'support' | 'operators' | 'customers' | 'rfid';

export interface NavItem {
  key: NavKey;
  href: string;
}

export interface NavModel {
  main: NavItem[];
  administration: NavItem[];
  after: NavItem[];
}

/**
 * Spec 1 §2: cockpit, locations, stations, users, download center, settings, support; an
 * Administration group with operators and bills for everyone, customers and RFID for admins only.
 */
export function navFor(session: Pick<Session, 'isAdmin'>): NavModel {
  return {
    main: [
      { key: 'cockpit', href: '/cockpit' },
      { key: 'locations', href: '/standorte' },
      { key: 'stations', href: '/stationen' },
      { key: 'users', href: '/nutzer' },
    ],
    administration: [
      { key: 'operators', href: '/betreiber' },
      { key: 'bills', href: '/rechnungen' },
      ...(session.isAdmin
        ? ([
            { key: 'customers', href: '/customers' },
            { key: 'rfid', href: '/rfid' },
          ] as NavItem[])
        : []),
    ],
    after: [
      { key: 'downloads', href: '/downloadcenter' },
      { key: 'settings', href: '/einstellungen' },
      { key: 'support', href: '/support' },
    ],
  };
}

/** A menu entry is current for its own path and everything below it (/standorte/12 → Standorte). */
export const isCurrent = (href: string, pathname: string) => pathname === href || pathname.startsWith(href + '/');
