import { Suspense, lazy } from 'react';

// The notice region, the service worker's update offer and their icons load right after the first
// paint, off the first route (issue 11): no notice is ever shown before the first screen.
const AppNoticesRegion = lazy(() => import('./app-notices-region').then((m) => ({ default: m.AppNoticesRegion })));

/** App-wide notices (app-notices-region.tsx), loaded after the first screen. */
export function AppNotices() {
  return (
    <Suspense fallback={null}>
      <AppNoticesRegion />
    </Suspense>
  );
}
