import { vi } from 'vitest';
import { defaultRuntimeConfig } from '../../contract/config';
import { resetRuntimeConfig } from './config';

/** One request the fake server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Headers;
}

/**
 * Test helper: stubs `fetch` with a server that answers `METHOD /path` (the query string left out)
 * from `routes` in the `{ data }` envelope, 404 for anything else, and records what it saw.
 */
export function fakeServer(routes: Record<string, (request: SeenRequest) => unknown>): SeenRequest[] {
  resetRuntimeConfig(defaultRuntimeConfig);
  const seen: SeenRequest[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = String(input).split('?')[0]!;
    const request: SeenRequest = {
      method,
      path,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: new Headers(init.headers),
    };
    seen.push(request);
    const route = routes[`${method} ${path}`] as ((request: SeenRequest) => unknown) | undefined;
    const status = route ? 200 : 404;
    const body = route ? { data: route(request) } : { errorCodeResponse: 'NOT_FOUND' };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return seen;
}
