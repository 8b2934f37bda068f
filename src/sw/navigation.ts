/**
 * Paths the shell must never answer: the four services (a navigation there is a download or an
 * API link and must reach the server), the runtime config, and the payment test mode's
 * server-rendered checkout page (`/zahlung/…`, server/src/payments), which a customer's link opens.
 */
export const NAVIGATION_DENYLIST: RegExp[] = [
  /^\/user-service(?:\/|$)/,
  /^\/bff(?:\/|$)/,
  /^\/contract-management(?:\/|$)/,
  /^\/booking-service(?:\/|$)/,
  /^\/config\.json$/,
  /^\/zahlung(?:\/|$)/,
];

export function isShellNavigation(pathname: string): boolean {
  return !NAVIGATION_DENYLIST.some((pattern) => pattern.test(pathname));
}

export const CONFIG_PATH = '/config.json';
export const CONFIG_CACHE = 'cpo-cockpit-config';
