/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { CONFIG_CACHE, CONFIG_PATH, NAVIGATION_DENYLIST } from './navigation';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

// The build injects every chunk, stylesheet, locale, icon, the manifest and index.html here.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Client-side routes (/login, /cockpit, /stripesepa/configure/success/<id> …) all open offline.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: NAVIGATION_DENYLIST }));

// The app must open offline with the deployment's own service bases, so keep the last config.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname === CONFIG_PATH && request.method === 'GET',
  // ignoreVary: the copy stored at install was fetched without the page's Accept header.
  new NetworkFirst({ cacheName: CONFIG_CACHE, networkTimeoutSeconds: 5, matchOptions: { ignoreVary: true } }),
);

// API calls get no route on purpose: the network answers them, and offline the client's own
// persisted query cache and outbox take over. Caching them here would serve one user's data to another.

self.addEventListener('install', (event) => {
  // On the first visit this worker does not control the page yet, so the page's own fetch of
  // /config.json bypasses it; fetch it here so the next offline start has it. Never fails the install.
  event.waitUntil(
    caches
      .open(CONFIG_CACHE)
      .then((cache) => cache.add(new Request(CONFIG_PATH, { cache: 'no-cache' })))
      .catch(() => undefined),
  );
});

// The update is the user's choice: the waiting worker only takes over when the page asks.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// Only affects the very first install (no previous worker): control the open page right away so
// its navigations and config are served offline without a reload. Updates still wait for the user.
clientsClaim();
