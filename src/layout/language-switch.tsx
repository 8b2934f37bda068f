import { Suspense, lazy } from 'react';

/** Spec 1 §2: the switch is shown on localhost, dev and int hosts only; production users get German. */
export function isLanguageSwitchHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || /(^|[.-])(dev|int)([.-]|$)/i.test(hostname);
}

// react-aria's toggle group brings its toolbar and focus scope (~4 KB gzip): production never shows
// the switch, so it is not part of the first route; dev and int hosts load it after the first paint.
const LanguageToggle = lazy(() => import('./language-toggle').then((m) => ({ default: m.LanguageToggle })));

export function LanguageSwitch() {
  if (!isLanguageSwitchHost(window.location.hostname)) return null;
  return (
    <Suspense fallback={null}>
      <LanguageToggle />
    </Suspense>
  );
}
