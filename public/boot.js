// What must happen before the app's modules run. A file, not an inline script, so the
// Content-Security-Policy can forbid inline scripts.
(function () {
  // zod compiles object parsers with `new Function` when it may, and probes for it when a schema is
  // built; under the CSP (no 'unsafe-eval') that probe is a reported violation. zod reads this
  // global config when it loads, before any schema of the app exists.
  globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });

  // The stored theme and language before first paint, so a reload does not flash the default theme.
  var themes = ['default', 'dark', 'light', 'blue', 'green', 'indigo'];
  try {
    var t = localStorage.getItem('theme');
    document.documentElement.dataset.theme = themes.indexOf(t) >= 0 ? t : 'default';
    var l = localStorage.getItem('language');
    if (l === 'en' || l === 'de') document.documentElement.lang = l;
  } catch {
    // Storage blocked: the default theme stays.
  }
})();
