// Applies the stored theme and language before first paint, so a reload does not flash the default
// theme. A file, not an inline script, so the Content-Security-Policy can forbid inline scripts.
(function () {
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
