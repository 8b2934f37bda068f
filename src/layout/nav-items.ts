import type { Session } from '../auth/session';

export type NavKey =
  'cockpit' | 'locations' | 'stations' | 'users' | 'bills' | 'downloads' | 'settings' | 'support' | 'operators' | 'customers' | 'rfid';

export interface NavItem {
  key: NavKey;
  href: string;
  /** First element of the query keys this screen reads: offline, a screen is offered when its data was kept. */
  dataRoot?: string;
}

export interface NavModel {
  main: NavItem[];
  administration: NavItem[];
  after: NavItem[];
}

/**
 * Spec 1 §2: cockpit, locations, stations, users, download center, settings, support; an
 * Administration group with operators and bills for everyone, customers and RFID for admins only.
 * An entry whose screen is not built yet (`isBuilt`: the router has no route for it) stays hidden,
 * so the menu never leads to a dead end; an area's screens bring their entry with them.
 */
export function navFor(session: Pick<Session, 'isAdmin'>, isBuilt: (href: string) => boolean): NavModel {
  const model: NavModel = {
    main: [
      { key: 'cockpit', href: '/cockpit', dataRoot: 'cockpit' },
      { key: 'locations', href: '/standorte', dataRoot: 'locations' },
      { key: 'stations', href: '/stationen', dataRoot: 'stations' },
      { key: 'users', href: '/nutzer', dataRoot: 'users' },
    ],
    administration: [
      { key: 'operators', href: '/betreiber', dataRoot: 'operators' },
      { key: 'bills', href: '/rechnungen', dataRoot: 'bills' },
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
  return {
    main: model.main.filter((i) => isBuilt(i.href)),
    administration: model.administration.filter((i) => isBuilt(i.href)),
    after: model.after.filter((i) => isBuilt(i.href)),
  };
}

/** A menu entry is current for its own path and everything below it (/standorte/12 → Standorte). */
export const isCurrent = (href: string, pathname: string) => pathname === href || pathname.startsWith(href + '/');
