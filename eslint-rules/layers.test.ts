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
