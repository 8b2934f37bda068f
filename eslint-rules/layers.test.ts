import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own eslint.config.js, so the test fails when the rule is switched off or loosened.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'cockpit/layers').map((m) => m.message);
}

describe('the layers lint rule (eslint.config.js)', () => {
  it("fails on a feature importing another feature's internals", async () => {
    const errors = await layerErrors(
      'src/features/cockpit/planted.ts',
      "import { PendingChip } from '../stations/components/pending-chip';\nexport const x = PendingChip;\n",
    );
    expect(errors).toEqual([expect.stringContaining('only through its api/ folder')]);
  });

  it("lets a feature use another feature's api/", async () => {
    const errors = await layerErrors(
      'src/features/cockpit/planted.ts',
      "import { locationKeys } from '../locations/api/location-keys';\nexport const x = locationKeys;\n",
    );
    expect(errors).toEqual([]);
  });

  it('fails on ui, core, shared or layout code importing upwards', async () => {
    expect(await layerErrors('src/ui/planted.ts', "export { StationsTable } from '../features/stations/stations-table';\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('src/offline/planted.ts', "const m = import('../layout/app-shell');\nexport default m;\n")).toHaveLength(1);
    expect(await layerErrors('src/shared/planted.ts', "import '../features/locations/api/location-keys';\n")).toHaveLength(1);
    expect(await layerErrors('src/layout/planted.ts', "import '../routes/_app';\n")).toHaveLength(1);
  });

  it('keeps the server and the app apart except for contract/', async () => {
    expect(await layerErrors('server/src/planted.ts', "import '../../src/api/client';\n")).toHaveLength(1);
    expect(await layerErrors('src/api/planted.ts', "import '../../server/src/app';\n")).toHaveLength(1);
    expect(await layerErrors('server/src/planted.ts', "import '../../contract/stations';\n")).toEqual([]);
  });
});

async function ruleErrors(rule: string, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
}

describe('the structure lint rules (eslint.config.js)', () => {
  it('fails on an import cycle between files, type-only imports included', async () => {
    // contract/stations.ts imports ./common, so common importing stations closes a cycle.
    const errors = await ruleErrors(
      'cockpit/no-cycle',
      'contract/common.ts',
      "import type { StationDetail } from './stations';\nexport type X = StationDetail;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Import cycle: contract/common.ts → contract/stations.ts')]);
  });

  it('fails on a cycle between feature areas, even through their api/ folders', async () => {
    // The stations area reads the location dropdown, so locations may not import stations.
    const errors = await ruleErrors(
      'cockpit/no-cycle',
      'src/features/locations/planted.ts',
      "import { stationKeys } from '../stations/api/station-keys';\nexport const x = stationKeys;\n",
    );
    expect(errors).toEqual([expect.stringContaining('Feature cycle: locations → stations')]);
  });

  it('leaves import() alone: loading one side lazily is how a cycle is broken', async () => {
    const errors = await ruleErrors('cockpit/no-cycle', 'contract/common.ts', "export const later = () => import('./stations');\n");
    expect(errors).toEqual([]);
  });

  it('fails on a file name that is not kebab-case, except route files named by their URL', async () => {
    expect(await ruleErrors('cockpit/kebab-case-files', 'src/ui/DataGrid.tsx', 'export {};\n')).toHaveLength(1);
    expect(await ruleErrors('cockpit/kebab-case-files', 'server/src/http/route_table.ts', 'export {};\n')).toHaveLength(1);
    expect(await ruleErrors('cockpit/kebab-case-files', 'src/ui/data-grid.test.tsx', 'export {};\n')).toEqual([]);
    expect(await ruleErrors('cockpit/kebab-case-files', 'src/routes/_app/stationen/$stationId.tsx', 'export {};\n')).toEqual([]);
  });

  it('fails on an api/ file that imports or re-exports a component', async () => {
    const errors = await ruleErrors(
      'cockpit/api-holds-data',
      'src/features/stations/api/planted.ts',
      "export { PendingChip } from '../components/pending-chip';\n",
    );
    expect(errors).toEqual([expect.stringContaining('may not import or re-export a component')]);
    expect(await ruleErrors('cockpit/api-holds-data', 'src/features/stations/api/planted.tsx', 'export const x = 1;\n')).toHaveLength(1);
  });

  it("allows zod only as 'zod/mini'", async () => {
    const errors = await ruleErrors(
      'no-restricted-imports',
      'src/ui/planted.ts',
      "import * as z from 'zod';\nimport * as m from 'zod/mini';\nexport const x = [z, m];\n",
    );
    expect(errors).toEqual([expect.stringContaining("zod only as 'zod/mini'")]);
    expect(
      await ruleErrors('no-restricted-imports', 'server/src/planted.ts', "import { z } from 'zod/v4';\nexport const x = z;\n"),
    ).toHaveLength(1);
  });
});
