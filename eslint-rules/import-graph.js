// The repository's import graph, read once per lint run: which source file imports which (static
// imports and re-exports, type-only ones included, since a type cycle is a design cycle all the
// same; `import()` is left out, it is how a cycle is broken on purpose). Used by the rules that
// need more than the file being linted: no import cycles, between files or between feature areas.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const repoRoot = path.resolve(import.meta.dirname, '..');
const ROOTS = ['src', 'server', 'contract'];
const EXTENSIONS = ['.ts', '.tsx', '.mjs', '.js'];
const SKIP = new Set(['node_modules', 'dist', 'migrations']);

export const toRepoPath = (abs) => path.relative(repoRoot, abs).split(path.sep).join('/');

function listFiles(dir, out) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(abs, out);
    else if (EXTENSIONS.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) out.push(abs);
  }
  return out;
}

/** The file a relative specifier names, or null (a package, a JSON file, a query such as `?url`). */
export function resolveSpecifier(fromAbs, spec) {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(fromAbs), spec.replace(/\?.*$/, ''));
  const candidates = [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))];
  for (const c of candidates) if (EXTENSIONS.some((e) => c.endsWith(e)) && fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

/** Static import and export-from specifiers of a source text, without `import()`. */
export function staticSpecifiers(text) {
  const info = ts.preProcessFile(text, true, false);
  return info.importedFiles.filter((f) => !/\bimport\s*\(\s*$/.test(text.slice(Math.max(0, f.pos - 20), f.pos - 1))).map((f) => f.fileName);
}

let graph = null;

/** repo path → the repo paths it imports statically. */
export function importGraph() {
  if (graph) return graph;
  graph = new Map();
  for (const root of ROOTS) {
    const dir = path.join(repoRoot, root);
    if (!fs.existsSync(dir)) continue;
    for (const abs of listFiles(dir, [])) {
      const targets = new Set();
      for (const spec of staticSpecifiers(fs.readFileSync(abs, 'utf8'))) {
        const target = resolveSpecifier(abs, spec);
        if (target) targets.add(toRepoPath(target));
      }
      graph.set(toRepoPath(abs), targets);
    }
  }
  return graph;
}

/** Whether `to` reaches `from` through `edges` (a Map of node → Set of nodes), and the path it takes. */
export function pathBetween(edges, start, goal) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    if (node === goal) {
      const out = [];
      for (let n = node; n !== null; n = previous.get(n)) out.unshift(n);
      return out;
    }
    for (const next of edges.get(node) ?? []) {
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return null;
}

/** The feature area of a repo path (`src/features/<area>/…`), or null. */
export const featureOf = (repoPath) => /^src\/features\/([^/]+)\//.exec(repoPath)?.[1] ?? null;

let featureGraph = null;

/** feature area → the feature areas its files import statically. */
export function featureImportGraph() {
  if (featureGraph) return featureGraph;
  featureGraph = new Map();
  for (const [file, targets] of importGraph()) {
    const from = featureOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = featureOf(target);
      if (to && to !== from) {
        if (!featureGraph.has(from)) featureGraph.set(from, new Set());
        featureGraph.get(from).add(to);
      }
    }
  }
  return featureGraph;
}
