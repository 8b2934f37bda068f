// What ARCHITECTURE.md promises about the shape of the code, enforced: no import cycles (between
// files, and between feature areas), kebab-case file names, and an area's api/ folder holding data
// (query factories, keys, writes), never a component.
import path from 'node:path';
import { featureImportGraph, featureOf, importGraph, pathBetween, resolveSpecifier, toRepoPath } from './import-graph.js';

/** The static import and export-from declarations of a file's AST, with their specifier nodes. */
function staticImports(program) {
  return program.body.filter(
    (n) =>
      (n.type === 'ImportDeclaration' || n.type === 'ExportAllDeclaration' || (n.type === 'ExportNamedDeclaration' && n.source)) &&
      typeof n.source.value === 'string',
  );
}

export const noCycleRule = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles between files or between feature areas' },
    messages: {
      fileCycle: 'Import cycle: {{cycle}}. Move what both need into a module of its own, or load one side with import().',
      featureCycle:
        'Feature cycle: {{cycle}}. Features import each other one way only; compose both in a route, or move what both need to the lower layer.',
    },
    schema: [],
  },
  create(context) {
    const self = toRepoPath(context.filename);
    return {
      Program(program) {
        const graph = importGraph();
        const features = featureImportGraph();
        const area = featureOf(self);
        for (const node of staticImports(program)) {
          const abs = resolveSpecifier(context.filename, node.source.value);
          if (!abs) continue;
          const target = toRepoPath(abs);
          const back = target === self ? [self] : pathBetween(graph, target, self);
          if (back) context.report({ node: node.source, messageId: 'fileCycle', data: { cycle: [self, ...back].join(' → ') } });
          const targetArea = featureOf(target);
          if (area && targetArea && targetArea !== area) {
            const areaBack = pathBetween(features, targetArea, area);
            if (areaBack)
              context.report({ node: node.source, messageId: 'featureCycle', data: { cycle: [area, ...areaBack].join(' → ') } });
          }
        }
      },
    };
  },
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// TanStack file routes are named by their URL: `__root`, a pathless layout `_app`, a parameter `$stationId`.
const ROUTE_FILE = /^(?:__root|_[a-z0-9]+(?:-[a-z0-9]+)*|\$[a-zA-Z][a-zA-Z0-9]*|[a-z0-9]+(?:-[a-z0-9]+)*)$/;

export const kebabCaseFilesRule = {
  meta: {
    type: 'suggestion',
    docs: { description: 'kebab-case file names (route files: as their URL)' },
    messages: { name: "File name '{{name}}' is not kebab-case." },
    schema: [],
  },
  create(context) {
    const repoPath = toRepoPath(context.filename);
    const stem = path.basename(repoPath).split('.')[0];
    const ok = repoPath.startsWith('src/routes/') ? ROUTE_FILE.test(stem) : KEBAB.test(stem);
    return {
      Program(program) {
        if (!ok) context.report({ node: program, messageId: 'name', data: { name: path.basename(repoPath) } });
      },
    };
  },
};

export const apiHoldsDataRule = {
  meta: {
    type: 'problem',
    docs: { description: "An area's api/ folder holds query factories, keys and writes, never a component" },
    messages: {
      component:
        "An api/ file may not import or re-export a component ({{target}}): other areas import api/, and a component there drags its screen's code along.",
      tsx: 'An api/ file holds data, not components: no .tsx files in api/.',
    },
    schema: [],
  },
  create(context) {
    const repoPath = toRepoPath(context.filename);
    if (!/^src\/features\/[^/]+\/api\//.test(repoPath) || /\.test\.tsx?$/.test(repoPath)) return {};
    return {
      Program(program) {
        if (repoPath.endsWith('.tsx')) context.report({ node: program, messageId: 'tsx' });
        for (const node of staticImports(program)) {
          const abs = resolveSpecifier(context.filename, node.source.value);
          if (abs?.endsWith('.tsx')) context.report({ node: node.source, messageId: 'component', data: { target: toRepoPath(abs) } });
        }
      },
    };
  },
};
