/**
 * Where sign-in returns to. Only a path of this app (never a full URL: open redirect), never a
 * public page (after sign-in it would show the sign-in again, and a return address to /login that
 * carries its own return address nests without end), and nothing absurdly long.
 */
const PUBLIC_PATHS = ['/login', '/einloggen', '/passwort-vergessen', '/forgot-password', '/stripesepa'];
const MAX_LENGTH = 2_000;

export function redirectTarget(href: string | null | undefined): string | undefined {
  if (!href || href.length > MAX_LENGTH || !/^\/(?![/\\])/.test(href)) return undefined;
  const path = href.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
  if (path === '/') return undefined;
  if (PUBLIC_PATHS.some((p) => path === p || path.startsWith(`${p}/`))) return undefined;
  return href;
}
