// What the import rules share: every relative import of the linted file, resolved to a repository path.
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..');

/** A file's path in the repository (`src/…`, `server/src/…`). */
export const repoPathOf = (file) => path.relative(repoRoot, file).split(path.sep).join('/');

/**
 * Visitors that call `onImport(node, target)` for each relative import, export-from and dynamic
 * import of the file (`node` the specifier to report on, `target` the imported path in the repository).
 */
export function relativeImports(context, onImport) {
  const check = (node, spec) => {
    if (typeof spec !== 'string' || !spec.startsWith('.')) return;
    onImport(node, repoPathOf(path.resolve(path.dirname(context.filename), spec)));
  };
  return {
    check,
    visitors: {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    },
  };
}
