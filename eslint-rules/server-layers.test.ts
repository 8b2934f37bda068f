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

describe('the server layers lint rule (eslint.config.js)', () => {
  it('keeps http/ below auth/ and db/ below both', async () => {
    expect(await errors('server/src/http/planted.ts', "import { makeScope } from '../auth/scope';\nexport const x = makeScope;\n")).toEqual(
      [expect.stringContaining('http/ may not import auth/')],
    );
    expect(
      await errors('server/src/http/planted.ts', "import type { Scope } from '../auth/scope';\nexport type X = Scope;\n"),
    ).toHaveLength(1);
    expect(await errors('server/src/db/planted.ts', "import { ApiError } from '../http/errors';\nexport const x = ApiError;\n")).toEqual([
      expect.stringContaining('db/ may not import http/'),
    ]);
    expect(await errors('server/src/db/planted.ts', "export { makeScope } from '../auth/scope';\n")).toHaveLength(1);
    expect(await errors('server/src/auth/planted.ts', "import { ApiError } from '../http/errors';\nexport const x = ApiError;\n")).toEqual(
      [],
    );
  });

  it('keeps the areas above http/, auth/ and db/, and the app above the areas', async () => {
    expect(
      await errors(
        'server/src/auth/planted.ts',
        "import { queueSupportMail } from '../mail/handlers';\nexport const x = queueSupportMail;\n",
      ),
    ).toEqual([expect.stringContaining('auth/ may not import an area (mail/handlers)')]);
    expect(await errors('server/src/http/planted.ts', "const m = import('../locations/queries');\nexport default m;\n")).toHaveLength(1);
    expect(await errors('server/src/locations/planted.ts', "import { createApp } from '../app';\nexport const x = createApp;\n")).toEqual([
      expect.stringContaining('may not import the app'),
    ]);
    expect(
      await errors(
        'server/src/locations/planted.ts',
        "import { assertVisible } from '../auth/scope';\nimport { ok } from '../http/respond';\nimport type { Db } from '../db/client';\nexport const x = [assertVisible, ok] as unknown as Db;\n",
      ),
    ).toEqual([]);
  });

  it("lets an area import another area's module only as areaImports allows", async () => {
    expect(
      await errors(
        'server/src/stations/planted.ts',
        "import { findLocation } from '../locations/queries';\nexport const x = findLocation;\n",
      ),
    ).toEqual([]);
    // Against the allowed direction, and into another area's routes or handlers that are not listed.
    expect(
      await errors(
        'server/src/locations/planted.ts',
        "import { listStations } from '../stations/queries';\nexport const x = listStations;\n",
      ),
    ).toEqual([expect.stringContaining('the area locations may import stations/queries only when areaImports')]);
    expect(
      await errors(
        'server/src/contracts/planted.ts',
        "import { customerRoutes } from '../customers/routes';\nexport const x = customerRoutes;\n",
      ),
    ).toHaveLength(1);
    expect(
      await errors(
        'server/src/stations/planted.ts',
        "import { createLocation } from '../locations/handlers';\nexport const x = createLocation;\n",
      ),
    ).toHaveLength(1);
  });

  it('keeps tests and their helpers out of production code, and lets tests import anything', async () => {
    expect(
      await errors(
        'server/src/locations/planted.ts',
        "import { createHarness } from '../test/harness';\nexport const x = createHarness;\n",
      ),
    ).toEqual([expect.stringContaining('production code does not import tests')]);
    expect(
      await errors(
        'server/src/http/planted.test.ts',
        "import { routes } from '../app';\nimport { makeScope } from '../auth/scope';\nexport const x = [routes, makeScope];\n",
      ),
    ).toEqual([]);
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
