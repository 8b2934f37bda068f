import type { Context } from 'hono';
import type { AppBindings } from './types';

/**
 * Strict-Transport-Security tells the browser to use HTTPS for this host from now on; sent over
 * plain HTTP it is ignored at best, and on a host served over HTTP only (a test machine, a LAN
 * address) it would make the app unreachable for half a year once a proxy adds TLS in front and
 * later goes. So it goes out only on an answer to an HTTPS request.
 */
export const hstsHeader = { 'strict-transport-security': 'max-age=15552000; includeSubDomains' } as const;

/**
 * Whether the caller reached the server over HTTPS: the request's own protocol (the server itself
 * speaks TLS), or, behind a trusted proxy only (TRUST_PROXY), the first entry of X-Forwarded-Proto.
 */
export function requestIsHttps(c: Context<AppBindings>): boolean {
  if (c.get('env').TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (forwarded) return forwarded === 'https';
  }
  return new URL(c.req.url).protocol === 'https:';
}
