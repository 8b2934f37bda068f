// Size budgets, checked against the production build in dist/:
//   first route ≤ FIRST_ROUTE_KB gzip, any other route chunk ≤ 60 KB gzip, precache ≤ 2 MB.
//
// "First route" is everything a signed-out visitor's first render of /login needs: the entry and
// its static imports, the signed-out part of the default language's messages
// (locales/de.json?signed-out, its own chunk: src/i18n/message-parts.ts) and the login route's lazy
// chunk with its static imports. DESIGN.md asks 120 KB: a wall, with room in front of it.
// Measured 109.7 KB (issue 11: 186.7 at the start, 164.6 before the contract moved to zod/mini,
// 141.3 before the sign-in page stopped loading react-aria and formatjs; issue 21: 120.0 before
// zod left the first route). What each area adds is printed below the total (see
// printFirstRouteByArea): react-dom 59.9, TanStack Router 26.5 (core 18.3, react 5.3, history 1.5,
// store 1.4), react 2.4 and scheduler 1.2, the German signed-out messages 2.0, the core of the app
// 13.5 (API client, session and tokens, message formatting, the kit's button and spinner, the
// route tree and the preload helper), the sign-in page 0.8, each area's route definitions ~0.05–0.15.
// No zod (the check fails when it comes back): route search and path params are plain parsers
// (ui/list-search.ts), the answers the first route reads are checked by hand (api/answer-check.ts)
// and the sign-in form's rules are spelled out (ui/field-rules.ts), each held to the contract by a
// test. No react-aria: the kit's text field, button and link are native elements (react-aria's
// widgets load with the signed-in shell, ui/aria-providers.tsx), and no formatjs
// (i18n/format-message.ts). A new list area adds ~0.09 KB (its route, its search, its preload list).
const FIRST_ROUTE_KB = 120;
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

type Chunk = { file: string; name?: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; src?: string };
const dist = process.env.DIST_DIR ?? 'dist';
const manifest: Record<string, Chunk> = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const gz = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const k of keys) {
    if (seen.has(k) || !manifest[k]) continue;
    seen.add(k);
    closure(manifest[k].imports ?? [], seen);
  }
  return seen;
}

const failures: string[] = [];
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry && k.endsWith('index.html'));
if (!entryKey) throw new Error('no index.html entry in the Vite manifest');
const entry = closure([entryKey]);
const loginKeys = Object.keys(manifest).filter((k) => /src\/routes\/login\.tsx/.test(k));
if (loginKeys.length === 0) failures.push('could not find the login route chunk in the Vite manifest');
const messageKeys = Object.keys(manifest).filter((k) => k === 'locales/de.json?signed-out');
if (messageKeys.length === 0)
  failures.push('could not find the German signed-out messages (locales/de.json?signed-out) in the Vite manifest');
const firstRoute = closure([...loginKeys, ...messageKeys], new Set(entry));
const firstFiles = [...new Set([...firstRoute].map((k) => manifest[k].file).filter((f) => f.endsWith('.js')))];
const firstSize = firstFiles.reduce((s, f) => s + gz(f), 0);
console.log(`first route (/login): ${kb(firstSize)} gzip in ${firstFiles.length} files (budget ${FIRST_ROUTE_KB} KB)`);
if (process.env.BUDGET_VERBOSE) for (const f of firstFiles) console.log(`  ${f} ${kb(gz(f))}`);
if (firstSize > FIRST_ROUTE_KB * 1024) failures.push(`first route JavaScript ${kb(firstSize)} > ${FIRST_ROUTE_KB} KB`);
failures.push(...printFirstRouteByArea(firstFiles));

// One wave: the browser learns of every first-route file from index.html (vite.config.ts,
// preloadFirstRoute), so none of them waits for an earlier one to run.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const announced = new Set([...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="\/([^"]+\.js)"/g)].map((m) => m[1]!));
const late = firstFiles.filter((f) => !announced.has(f));
if (late.length) failures.push(`first-route files index.html neither loads nor preloads: ${late.join(', ')}`);

const entryFiles = new Set([...entry].map((k) => manifest[k].file));
let largest = { file: '', size: 0 };
// Shared chunks are named by their hash only (vite.config.ts): the manifest says what they hold.
const named = (c: Chunk) => (c.src ? `${c.file} (${c.src})` : c.name ? `${c.file} (${c.name})` : c.file);
for (const c of Object.values(manifest)) {
  if (!c.file.endsWith('.js') || entryFiles.has(c.file)) continue;
  const size = gz(c.file);
  if (size > largest.size) largest = { file: named(c), size };
  if (size > 60 * 1024) failures.push(`route chunk ${named(c)} ${kb(size)} > 60 KB`);
}
console.log(`largest other chunk: ${largest.file} ${kb(largest.size)} gzip (budget 60 KB)`);

// What the service worker precaches: everything the injectManifest glob matched.
const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
const urls = [...sw.matchAll(/"?url"?:\s*"([^"]+)"/g)].map((m) => m[1]!);
if (urls.length === 0) failures.push('sw.js has no precache manifest');
const files = new Map<string, number>();
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else files.set(relative(dist, p), statSync(p).size);
  }
};
walk(dist);
const precache = urls.reduce((s, u) => s + (files.get(u.replace(/^\//, '')) ?? 0), 0);
console.log(`precache: ${urls.length} entries, ${kb(precache)} (budget 2048 KB)`);
for (const must of ['index.html', 'manifest.webmanifest', 'icons/icon-192.png', 'icons/icon-512.png']) {
  if (!urls.some((u) => u.replace(/^\//, '') === must)) failures.push(`precache lacks ${must}`);
}
if (precache > 2 * 1024 * 1024) failures.push(`precache ${kb(precache)} > 2 MB`);

if (failures.length) {
  console.error('budget check failed:\n  ' + failures.join('\n  '));
  process.exit(1);
}
console.log('budgets ok');

/**
 * What each area (scripts/code-areas.ts) adds to the first route: per first-route file, the gzip
 * bytes the file would lose without that area's modules (dist/.vite/area-sizes.json, written by
 * vite.config.ts's areaSizes from the modules before minification), scaled to the file's real gzip
 * size. What areas share (a file's context) is in no row, so the rows add up to less than the total.
 */
function printFirstRouteByArea(files: string[]): string[] {
  const sizes: Record<string, { total: number; areas: Record<string, number> }> = JSON.parse(
    readFileSync(join(dist, '.vite/area-sizes.json'), 'utf8'),
  );
  const areas = new Map<string, number>();
  for (const file of files) {
    const chunk = sizes[file];
    if (!chunk) continue;
    for (const [area, bytes] of Object.entries(chunk.areas)) areas.set(area, (areas.get(area) ?? 0) + (gz(file) * bytes) / chunk.total);
  }
  const rows = [...areas].sort((a, b) => b[1] - a[1]);
  console.log('what each area adds to the first route (gzip, estimated):');
  for (const [area, bytes] of rows) console.log(`  ${area.padEnd(36)} ${(bytes / 1024).toFixed(2).padStart(6)} KB`);
  return areas.has('zod')
    ? ['zod is on the first route: route search (ui/list-search.ts) and the answers it reads (api/answer-check.ts) do without it']
    : [];
}
