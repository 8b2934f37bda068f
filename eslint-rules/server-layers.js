// The server's folders, enforced: which may import which (ARCHITECTURE.md, "Server"). A relative
// import is resolved against the importing file and both are placed: db/ at the bottom, then http/,
// then auth/, then the areas, then the app's own files (app.ts, server.ts, main.ts). A folder imports
// its own and those below it; an area imports another area only where `areaImports` allows it, and
// that table may not hold a cycle. Tests (*.test.ts, test/) may import anything; nothing else
// imports them.
import { relativeImports, repoPathOf } from './relative-imports.js';

/**
 * Which modules of another area each area may import, as `<area>/<file>`; an area missing here
 * imports no other area. Add an entry only for a one-way use that belongs where it is (stations
 * place connectors at a location, so they read locations; locations know nothing of stations).
 */
export const areaImports = {
  bookings: ['cockpit/queries'],
  contracts: [
    'customers/handlers',
    'customers/queries',
    'locations/queries',
    'mail/attachment-check',
    'mail/upload-gate',
    'operators/queries',
    // A STRIPE_SEPA contract's mandate link on create, and the redo (issue 26).
    'payments/mandates',
    'payments/redo',
    'rfid/handlers',
  ],
  // The download center's files are written by the bookings area's one German-Excel CSV writer.
  downloads: ['bookings/german-csv', 'bookings/handlers'],
  // The station simulator starts from the demo seed's stations, tags and station password; a
  // session's cost is the bills' rule over the tariff history the bill run reads.
  ocpp: ['bills/compute', 'bills/run', 'bills/run-queries', 'seed/ocpp', 'seed/random', 'seed/seed'],
  // The demo seed's bills come from the bill run itself, its sessions' costs from the bills' rule,
  // its STRIPE_SEPA mandates from completed test checkouts.
  seed: ['bills/compute', 'bills/run', 'payments/mandates', 'payments/test-checkout'],
  // A parking-lot rename follows into the contracts that name the lot (contracts/queries followLotRenames);
  // a status the user sets reaches the connected station (ChangeAvailability).
  stations: ['locations/queries', 'contracts/queries', 'mail/attachment-check', 'mail/upload-gate', 'ocpp/availability'],
};

// Bottom to top; a layer imports its own and the ones below it.
const rank = { db: 0, http: 1, auth: 2, area: 3, app: 4, test: 5 };

const withoutExtension = (file) => file.replace(/\.(d\.ts|[cm]?[jt]sx?)$/, '');

/** Where a repository path sits on the server: its layer, and for an area its name and module (`<area>/<file>`); null outside server/src. */
export function serverPlaceOf(repoPath) {
  const parts = repoPath.split('/');
  if (parts[0] !== 'server' || parts[1] !== 'src' || parts.length < 3) return null;
  const file = parts.at(-1);
  if (/\.test\.[cm]?[jt]sx?$/.test(file) || parts[2] === 'test') return { layer: 'test' };
  if (parts.length === 3) {
    // env.ts is the process's configuration, which http/ reads already (it sets zod's messages from there).
    return withoutExtension(file) === 'env' ? { layer: 'http' } : { layer: 'app' };
  }
  const folder = parts[2];
  if (folder === 'db' || folder === 'http' || folder === 'auth') return { layer: folder };
  return { layer: 'area', area: folder, module: withoutExtension(parts.slice(2).join('/')) };
}

/** A cycle among the areas `table` lets import each other (`['a', 'b', 'a']`), or null. */
export function areaCycle(table) {
  const next = (area) => [...new Set((table[area] ?? []).map((module) => module.split('/')[0]))];
  const state = new Map(); // area -> 'open' | 'done'
  const walk = (area, trail) => {
    if (state.get(area) === 'done') return null;
    if (state.get(area) === 'open') return [...trail.slice(trail.indexOf(area)), area];
    state.set(area, 'open');
    for (const other of next(area)) {
      const cycle = walk(other, [...trail, area]);
      if (cycle) return cycle;
    }
    state.set(area, 'done');
    return null;
  };
  for (const area of Object.keys(table)) {
    const cycle = walk(area, []);
    if (cycle) return cycle;
  }
  return null;
}

/** Why `from` may not import `to` on the server, or null when it may. */
export function serverViolation(from, to, table = areaImports) {
  if (!from || !to || from.layer === 'test') return null;
  if (to.layer === 'test') return 'production code does not import tests or test helpers';
  if (from.layer === 'area' && to.layer === 'area') {
    if (from.area === to.area || (table[from.area] ?? []).includes(to.module)) return null;
    return `the area ${from.area} may import ${to.module} only when areaImports (eslint-rules/server-layers.js) allows it`;
  }
  if (rank[to.layer] > rank[from.layer]) {
    return `${from.layer === 'area' ? `the area ${from.area}` : `${from.layer}/`} may not import ${to.layer === 'area' ? `an area (${to.module})` : to.layer === 'app' ? 'the app' : `${to.layer}/`}: db/ < http/ < auth/ < areas < app`;
  }
  return null;
}

export const serverLayersRule = {
  meta: {
    type: 'problem',
    docs: { description: "Enforces the direction of the server's imports (ARCHITECTURE.md, Server)" },
    messages: {
      layer: 'Import of {{target}} breaks the server layers: {{why}}.',
      cycle: 'areaImports lets areas import each other in a cycle ({{cycle}}): one of them must not know the other.',
    },
    schema: [{ type: 'object', properties: { areaImports: { type: 'object' } }, additionalProperties: false }],
  },
  create(context) {
    const table = context.options[0]?.areaImports ?? areaImports;
    const from = serverPlaceOf(repoPathOf(context.filename));
    if (!from) return {};
    const cycle = areaCycle(table);
    const { check, visitors } = relativeImports(context, (node, target) => {
      const why = serverViolation(from, serverPlaceOf(target), table);
      if (why) context.report({ node, messageId: 'layer', data: { target, why } });
    });
    return {
      ...visitors,
      Program: (node) => {
        if (cycle) context.report({ node, messageId: 'cycle', data: { cycle: cycle.join(' → ') } });
      },
      TSImportType: (node) => check(node, node.argument?.literal?.value ?? node.argument?.value),
    };
  },
};

export default { rules: { layers: serverLayersRule } };
