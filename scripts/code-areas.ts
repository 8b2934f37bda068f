/**
 * The area a module of the build belongs to, for "what each area adds to the first route"
 * (scripts/check-budgets.ts, from vite.config.ts's areaSizes): an area's feature folder and its
 * signed-in routes, each package, the locale files, and the core (the rest of src/, contract/, the
 * bundler's runtime). `id` is the module's path relative to the repository (or a virtual id).
 */
export function areaOf(id: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (pkg) return pkg[1]!;
  const feature = /^src\/features\/([^/]+)\//.exec(id);
  if (feature) return `src/features/${feature[1]}`;
  const route = /^src\/routes\/_app\/([^/.]+)/.exec(id);
  if (route) return `src/routes/_app/${route[1]}`;
  if (/^locales\//.test(id)) return 'messages';
  return 'core';
}
