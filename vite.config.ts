import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, minifySync, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';
import optimizeLocales from '@react-aria/optimize-locales-plugin';

import pkg from './package.json' with { type: 'json' };
import { areaOf } from './scripts/code-areas';
import { compileMessages } from './src/i18n/compile-messages';
import { pickMessagePart, type MessagePart } from './src/i18n/message-parts';

// Busts the persisted query cache when a new build ships (src/offline/persister.ts).
const buildId = process.env.VITE_BUILD_ID ?? `${pkg.version}-${Date.now().toString(36)}`;
const apiTarget = process.env.API_URL ?? 'http://localhost:8080';
const proxied = ['/user-service', '/bff', '/contract-management', '/booking-service', '/config.json'];

/**
 * Every text file of the build, compressed once at build time with Brotli (best quality) and gzip,
 * beside the original: the server sends `x.js.br` to a browser that accepts it (serveStatic's
 * `precompressed`). Runs after the service worker is written, so sw.js is compressed too.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'cockpit-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir)
            .filter((name) => !name.startsWith('.'))
            .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
        for (const file of walk(outDir)) {
          if (!/\.(js|mjs|css|html|svg|json|webmanifest|txt)$/.test(file)) continue;
          const raw = readFileSync(file);
          if (raw.length < 1024) continue;
          writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
        }
      },
    },
  };
}

/**
 * The first screen of a signed-out visitor is /login in German: without help the browser fetches the
 * entry, then (when it runs) the German messages, then (when the router matches) the login route's
 * chunks: three round trips before anything paints. `<link rel="modulepreload">` for the messages
 * (their signed-out part) and the login route's chunks lets it fetch all of them in parallel with
 * the entry. An English user fetches the German part too (~3 KB; the service worker precaches all
 * message chunks anyway).
 */
function preloadFirstRoute(): Plugin {
  const wanted = [/^locales\/de\.json\?signed-out$/, /src\/routes\/login\.tsx\?tsr-split=component(?:---loader)?$/];
  return {
    name: 'cockpit-preload-first-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const entry = chunks.find((c) => c.isEntry);
        if (!entry) return;
        const closure = (files: string[], seen: Set<string>) => {
          for (const f of files) {
            if (seen.has(f)) continue;
            seen.add(f);
            closure(byFile.get(f)?.imports ?? [], seen);
          }
          return seen;
        };
        const already = closure([entry.fileName], new Set());
        const roots = chunks.filter((c) => c.facadeModuleId && wanted.some((w) => w.test(relative(process.cwd(), c.facadeModuleId!))));
        if (roots.length !== wanted.length) throw new Error('preloadFirstRoute: the German messages or the login route chunk is missing');
        const extra = [
          ...closure(
            roots.map((c) => c.fileName),
            new Set(already),
          ),
        ].filter((f) => !already.has(f));
        return extra.map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * What each area of the code base (scripts/code-areas.ts) adds to each chunk, for
 * scripts/check-budgets.ts: the chunk's modules, each minified, are compressed together, then
 * without one area's modules at a time; the difference is what that area adds,
 * the way a new area would, with the rest of the file as context. Written to
 * dist/.vite/area-sizes.json (not precached: the service worker's glob skips dot folders).
 */
function areaSizes(): Plugin {
  // Each module's code as the build minifies it (without its top-level names, which only the whole
  // file may shorten): vendor code comes already minified, the app's would weigh twice as much.
  const minified = (code: string) => {
    const result = minifySync('module.js', code, { compress: false, mangle: { toplevel: false } });
    return result.errors.length ? code : result.code;
  };
  return {
    name: 'cockpit-area-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const out: Record<string, { total: number; areas: Record<string, number> }> = {};
      const size = (parts: string[]) => gzipSync(parts.join('\n'), { level: 9 }).length;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const modules = Object.entries(chunk.modules).map(([id, info]) => ({
          area: areaOf(relative(process.cwd(), id.replace(/\0/g, ''))),
          code: minified(info.code ?? ''),
        }));
        const total = size(modules.map((m) => m.code));
        const areas: Record<string, number> = {};
        for (const area of new Set(modules.map((m) => m.area))) {
          areas[area] = total - size(modules.filter((m) => m.area !== area).map((m) => m.code));
        }
        out[chunk.fileName] = { total, areas };
      }
      this.emitFile({ type: 'asset', fileName: '.vite/area-sizes.json', source: JSON.stringify(out) });
    },
  };
}

/**
 * Preloading what a signed-in route needs, without what the signed-in base brings: the signed-in
 * layout's chunk, the query runtime and the write kinds (with all they import) load whenever a
 * signed-in route does, side by side with it (the router fetches every matched route's chunk at
 * once, the layout's beforeLoad imports the other two, main.tsx starts them on a signed-in
 * reload). Each route's preload list sits in the entry, which holds the route tree: listing only
 * the route's own files keeps what an area adds to the first route small.
 */
function signedInPreload() {
  const base = new Set<string>();
  const routes = new Set<string>();
  const plugin: Plugin = {
    name: 'cockpit-signed-in-preload',
    apply: 'build',
    // Runs before Vite's preload lists are written (its import analysis is a later plugin).
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const add = (file: string) => {
        if (base.has(file)) return;
        base.add(file);
        for (const next of byFile.get(file)?.imports ?? []) add(next);
      };
      for (const c of chunks) {
        const id = c.facadeModuleId ? relative(process.cwd(), c.facadeModuleId) : '';
        if (/^src\/(routes\/_app\.tsx\?|offline\/query-runtime\.tsx$|write-kinds\.ts$)/.test(id)) add(c.fileName);
        else if (id.startsWith('src/routes/_app/')) routes.add(c.fileName);
      }
    },
  };
  const resolveDependencies = (file: string, deps: string[]) => (routes.has(file) ? deps.filter((d) => !base.has(d)) : deps);
  return { plugin, resolveDependencies };
}

/**
 * The locale files, each cut into the part the screens before sign-in need and the signed-in part
 * (`locales/de.json?signed-out`, `?signed-in`: src/i18n/message-parts.ts), in dev too, so a key
 * missing from the signed-out part shows there first, and in the unit tests (vitest.config.ts). In the build the messages are also compiled
 * (src/i18n/compile-messages.ts): the app then never parses ICU at run time, so the build replaces
 * the parser with formatjs' `no-parser` build (resolve.alias below, ~7 KB gzip less on the first route).
 */
export function messageParts(): Plugin {
  let build = false;
  return {
    name: 'cockpit-message-parts',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    transform(code, id) {
      const match = /\/locales\/(de|en)\.json(?:\?(signed-out|signed-in))?$/.exec(id);
      if (!match) return;
      const [, locale, part] = match as unknown as [string, string, MessagePart | undefined];
      const source = JSON.parse(code) as Record<string, unknown>;
      const flat = build ? compileMessages(source, locale) : flattenSource(source);
      // A part is a JavaScript module (its id does not end in .json); the whole file stays JSON.
      if (part) return { code: `export default ${JSON.stringify(pickMessagePart(flat, part))};`, map: null };
      return { code: JSON.stringify(flat), map: null };
    },
  };
}

const flattenSource = (tree: Record<string, unknown>, prefix = '', out: Record<string, unknown> = {}) => {
  for (const [key, value] of Object.entries(tree)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') flattenSource(value as Record<string, unknown>, id, out);
    else out[id] = value;
  }
  return out;
};

const signedIn = signedInPreload();

export default defineConfig(({ command }) => ({
  plugins: [
    messageParts(),
    signedIn.plugin,
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders read through the query runtime and the areas' factories, which belong to the
      // signed-in chunks: split them off the route tree so the sign-in page does not load them. A
      // route's loader shares its component's chunk: a signed-in reload preloads the matched routes'
      // components (main.tsx, warmSignedInStart) while the offline copy is restored, so the loader is
      // there when the layout is done, instead of being fetched only then (one round trip less).
      codeSplittingOptions: { defaultBehavior: [['loader', 'component'], ['errorComponent'], ['notFoundComponent']] },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/route-tree.gen.ts',
    }),
    react(),
    tailwindcss(),
    // react-aria ships its own strings in ~34 languages; the app speaks German and English only.
    // en-US stays because English date fields use en-CH, which falls back to it.
    optimizeLocales.vite({ locales: ['de-DE', 'en-GB', 'en-US'] }),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      // public/manifest.webmanifest is the manifest; it is linked from index.html.
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest,json}'],
        globIgnores: ['config.json'],
      },
      devOptions: { enabled: false },
    }),
    preloadFirstRoute(),
    areaSizes(),
    precompress(),
  ],
  resolve: {
    alias: [
      // Messages arrive precompiled (messageParts), so the build leaves the ICU parser out.
      ...(command === 'build'
        ? [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }]
        : []),
      // TanStack's store asks for the shim of useSyncExternalStore for React < 18; React 19 has it
      // built in, and the package's plain entry uses it (~0.4 KB gzip less on the first route).
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector.js' },
    ],
  },
  define: {
    'import.meta.env.VITE_BUILD_ID': JSON.stringify(buildId),
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    manifest: true,
    modulePreload: { resolveDependencies: signedIn.resolveDependencies },
    // The entry holds react-dom, the router, zod/mini and react-aria's core (~420 KB, ~132 KB gzip);
    // scripts/check-budgets.ts watches the gzip sizes that matter.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Shared chunks (no module of their own behind them) by their hash only: the entry lists
        // every chunk's file for preloading (the route tree's imports), and their names (useHover,
        // SelectionIndicator, …) were ~0.4 KB gzip of the first route. dist/.vite/manifest.json
        // says what is in each file.
        chunkFileNames: (chunk) => (chunk.facadeModuleId ? 'assets/[name]-[hash].js' : 'assets/[hash].js'),
        // The first route in few files: a browser opens 6 connections per host over HTTP/1.1, so 25
        // small chunks arrive in ~5 round trips even when all are preloaded. Everything the entry
        // imports statically goes into one chunk, what the sign-in page adds into another (pages
        // sharing its fields load that one too, ~2 KB of sign-in code more for them).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'sign-in', test: /src[\\/]features[\\/]auth[\\/]login-page\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(proxied.map((p) => [p, { target: apiTarget, changeOrigin: true }])),
  },
}));
