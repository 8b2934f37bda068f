import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locations } from '../../db/schema/locations';
import { stationImportRows, stationImports } from '../../db/schema/station-imports';
import { connectors } from '../../db/schema/stations';
import { createHarness, type Harness } from '../../test/harness';
import { IMPORT_BATCH_ROWS, recoverStationImports, writeStations, type NamedStation } from './write-import';

let h: Harness;
let loc: { locationId: string; cpoId: string };
beforeAll(async () => {
  h = await createHarness();
  [loc] = (await h.db.select({ locationId: locations.locationId, cpoId: locations.cpoId }).from(locations).limit(1)) as [typeof loc];
});
afterAll(() => h?.close());

/** Stations enough for three batches, each with a lot of its own at one location. */
const stations = (prefix: string): NamedStation[] =>
  Array.from({ length: 2 * IMPORT_BATCH_ROWS + 500 }, (_, i) => ({
    row: i + 2,
    cpId: `${prefix}-${i}`,
    handedOut: false,
    cpoId: loc.cpoId,
    locationId: loc.locationId,
    wallboxModel: 'ABL eMH1',
    connectorCount: 1,
    parkingLots: [`${prefix[0]}${i.toString(36).padStart(4, '0')}`],
  }));
const left = async (prefix: string) => ({
  connectors: (
    await h.db
      .select()
      .from(connectors)
      .where(like(connectors.cpId, `${prefix}-%`))
  ).length,
  staged: (await h.db.select().from(stationImportRows)).length,
  recorded: (await h.db.select().from(stationImports)).length,
});

describe('the import is written all or nothing, in short transactions', () => {
  it('a failure after the first batches were moved leaves no station, nothing staged and no record', async () => {
    const moved: number[] = [];
    const failing = writeStations(h.db, stations('FAIL'), {
      afterBatch: async (batch) => {
        moved.push(batch);
        // The first batches are in `connectors` by now: the failure comes in the middle.
        expect((await left('FAIL')).connectors).toBe((batch + 1) * IMPORT_BATCH_ROWS);
        if (batch === 1) throw new Error('failed in the middle');
      },
    });
    await expect(failing).rejects.toThrow('failed in the middle');
    expect(moved).toEqual([0, 1]);
    expect(await left('FAIL')).toEqual({ connectors: 0, staged: 0, recorded: 0 });
    // Nothing is in the way of doing it again.
    const written = await writeStations(h.db, stations('FAIL'));
    expect(written).toHaveLength(2 * IMPORT_BATCH_ROWS + 500);
    expect(await left('FAIL')).toEqual({ connectors: 2 * IMPORT_BATCH_ROWS + 500, staged: 0, recorded: 0 });
  });

  it('an import whose process died mid-way is undone at the next start, and its retry goes through', async () => {
    let dead = false;
    // The "process" stops after the first batch and never comes back.
    void writeStations(h.db, stations('DEAD'), {
      afterBatch: () => {
        dead = true;
        return new Promise(() => {});
      },
    });
    while (!dead) await new Promise((r) => setTimeout(r, 20));
    expect(await left('DEAD')).toMatchObject({ connectors: IMPORT_BATCH_ROWS, recorded: 1 });
    await recoverStationImports(h.db, true);
    expect(await left('DEAD')).toEqual({ connectors: 0, staged: 0, recorded: 0 });
    await writeStations(h.db, stations('DEAD'));
    expect(await left('DEAD')).toEqual({ connectors: 2 * IMPORT_BATCH_ROWS + 500, staged: 0, recorded: 0 });
  });

  it('handed-out ids taken meanwhile (the wizard) are moved past, in the rows and the answer', async () => {
    const first = 900_000;
    const mine = stations('OLI')
      .slice(0, 3)
      .map((s, i) => ({ ...s, handedOut: true, cpId: `OLI${first + i}`, parkingLots: [`Q${i}`] }));
    // The wizard took the first of them after the file was checked.
    await h.db.insert(connectors).values({
      connectorId: `OLI${first}_1`,
      cpId: `OLI${first}`,
      connectorNumber: 1,
      cpoId: loc.cpoId,
      wallboxModel: 'ABL eMH1',
      status: 'INACTIVE',
    });
    const written = await writeStations(h.db, mine);
    expect(written.map((s) => s.cpId)).toEqual([`OLI${first + 1}`, `OLI${first + 2}`, `OLI${first + 3}`]);
    const rows = await h.db.select().from(connectors).where(eq(connectors.locationId, loc.locationId));
    expect(
      rows
        .filter((r) => r.cpId.startsWith('OLI9'))
        .map((r) => r.connectorId)
        .sort(),
    ).toEqual([`OLI${first + 1}_1`, `OLI${first + 2}_1`, `OLI${first + 3}_1`]);
  });
});
