import { ESLint, Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import server, { areaCycle, areaImports } from './server-layers.js';

// The project's own eslint.config.js, so the test fails when the rule is switched off or loosened.
const eslint = new ESLint({ cwd: process.cwd() });

async function errors(filePath: string, code: string, ruleId = 'server/layers'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

/** The layer errors of a file at `filePath` that imports each of `specs`. */
const planted = (filePath: string, ...specs: string[]) =>
  errors(
    filePath,
    `${specs.map((spec, i) => `import * as m${i} from '${spec}';\n`).join('')}export default [${specs.map((_, i) => `m${i}`)}];\n`,
  );

describe('the server layers lint rule (eslint.config.js)', () => {
  it('keeps http/ below auth/ and db/ below both', async () => {
    expect(await planted('server/src/http/planted.ts', '../auth/scope')).toEqual([expect.stringContaining('http/ may not import auth/')]);
    expect(
      await errors('server/src/http/planted.ts', "import type { Scope } from '../auth/scope';\nexport type X = Scope;\n"),
    ).toHaveLength(1);
    expect(await planted('server/src/db/planted.ts', '../http/errors')).toEqual([expect.stringContaining('db/ may not import http/')]);
    expect(await errors('server/src/db/planted.ts', "export { makeScope } from '../auth/scope';\n")).toHaveLength(1);
    expect(await planted('server/src/auth/planted.ts', '../http/errors', '../db/client')).toEqual([]);
  });

  it('keeps the areas above http/, auth/ and db/, and the app above the areas', async () => {
    expect(await planted('server/src/auth/planted.ts', '../mail/handlers')).toEqual([
      expect.stringContaining('auth/ may not import an area (mail/handlers)'),
    ]);
    expect(await errors('server/src/http/planted.ts', "const m = import('../locations/queries');\nexport default m;\n")).toHaveLength(1);
    expect(await planted('server/src/locations/planted.ts', '../app')).toEqual([expect.stringContaining('may not import the app')]);
    expect(await planted('server/src/locations/planted.ts', '../auth/scope', '../http/respond', '../db/client', './queries')).toEqual([]);
  });

  it("lets an area import another area's module only as areaImports allows", async () => {
    expect(await planted('server/src/stations/planted.ts', '../locations/queries')).toEqual([]);
    // Against the allowed direction, and into another area's routes or handlers that are not listed.
    expect(await planted('server/src/locations/planted.ts', '../stations/queries')).toEqual([
      expect.stringContaining('the area locations may import stations/queries only when areaImports'),
    ]);
    expect(await planted('server/src/contracts/planted.ts', '../customers/routes')).toHaveLength(1);
    expect(await planted('server/src/stations/planted.ts', '../locations/handlers')).toHaveLength(1);
  });

  it('keeps tests and their helpers out of production code, and lets tests import anything', async () => {
    expect(await planted('server/src/locations/planted.ts', '../test/harness')).toEqual([
      expect.stringContaining('production code does not import tests'),
    ]);
    expect(await planted('server/src/http/planted.test.ts', '../app', '../auth/scope', '../locations/handlers')).toEqual([]);
  });

  it('refuses a table of allowed area imports with a cycle', () => {
    expect(areaCycle(areaImports)).toBeNull();
    expect(areaCycle({ ...areaImports, locations: ['stations/queries'] })).toEqual(['locations', 'stations', 'locations']);
    expect(areaCycle({ a: ['b/queries'], b: ['c/handlers'], c: ['a/queries'] })).toEqual(['a', 'b', 'c', 'a']);

    const linter = new Linter({ configType: 'flat' });
    const lint = (table: Record<string, string[]>) =>
      linter.verify(
        "import { findLocation } from '../locations/queries';\nexport const x = findLocation;\n",
        [
          {
            files: ['**/*.ts'],
            languageOptions: { parser: tseslint.parser },
            plugins: { server },
            rules: { 'server/layers': ['error', { areaImports: table }] },
          },
        ],
        { filename: `${process.cwd()}/server/src/stations/planted.ts` },
      );
    expect(lint(areaImports)).toEqual([]);
    expect(lint({ ...areaImports, locations: ['stations/queries'] }).map((m) => m.message)).toEqual([
      expect.stringContaining('cycle (locations → stations → locations)'),
    ]);
  });

  it('keeps every production function under 150 lines', async () => {
    const longFunction = `export function planted(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(150)}  return n;\n}\n`;
    expect(await errors('server/src/locations/planted.ts', longFunction, 'max-lines-per-function')).toHaveLength(1);
    expect(await errors('server/src/locations/planted.test.ts', longFunction, 'max-lines-per-function')).toEqual([]);
  });
});
