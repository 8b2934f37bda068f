// The layers of the code base, enforced: which folder may import which (ARCHITECTURE.md, "Layers").
// A relative import is resolved against the importing file and both are placed in a layer; an
// import that goes up a layer, or into another feature's internals, is an error.
import { relativeImports, repoPathOf } from './relative-imports.js';
import { apiHoldsDataRule, kebabCaseFilesRule, noCycleRule } from './structure.js';

/** Where a repository path sits: its layer and, for features, the area and whether it is the area's api/. */
export function placeOf(repoPath) {
  const parts = repoPath.split('/');
  if (parts[0] === 'contract') return { layer: 'contract' };
  if (parts[0] === 'server') return { layer: 'server' };
  if (parts[0] !== 'src') return { layer: 'other' };
  const top = parts[1];
  if (parts.length === 2) return { layer: 'app' }; // src/main.tsx, src/router.ts, src/write-kinds.ts …
  if (top === 'features') return { layer: 'feature', area: parts[2], isApi: parts[3] === 'api' };
  if (top === 'routes') return { layer: 'app' };
  if (top === 'ui' || top === 'i18n') return { layer: 'ui' };
  if (top === 'api' || top === 'auth' || top === 'offline' || top === 'sw') return { layer: 'core' };
  if (top === 'shared') return { layer: 'shared' };
  if (top === 'layout') return { layer: 'layout' };
  return { layer: 'other' };
}

// Bottom to top; a layer may import its own and the ones below it (features: see below).
const rank = { contract: 0, ui: 1, core: 2, shared: 3, layout: 4, feature: 5, app: 6 };

/** Why `from` may not import `to`, or null when it may. */
export function violation(from, to) {
  if (from.layer === 'other' || to.layer === 'other') return null;
  if (from.layer === 'server' || to.layer === 'server') {
    return from.layer === to.layer || (from.layer === 'server' && to.layer === 'contract')
      ? null
      : 'the server and the app share only contract/';
  }
  if (from.layer === 'feature' && to.layer === 'feature') {
    if (from.area === to.area || to.isApi) return null;
    return `a feature imports another feature only through its api/ folder (here features/${to.area}/api/)`;
  }
  if (rank[to.layer] > rank[from.layer]) return `${from.layer} code may not import ${to.layer} code`;
  return null;
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Enforces the import layers of ARCHITECTURE.md' },
    messages: { layer: 'Import of {{target}} breaks the layers: {{why}}.' },
    schema: [],
  },
  create(context) {
    const from = placeOf(repoPathOf(context.filename));
    return relativeImports(context, (node, target) => {
      const why = violation(from, placeOf(target));
      if (why) context.report({ node, messageId: 'layer', data: { target, why } });
    }).visitors;
  },
};

export default {
  rules: { layers: layersRule, 'no-cycle': noCycleRule, 'kebab-case-files': kebabCaseFilesRule, 'api-holds-data': apiHoldsDataRule },
};
