import { expect, test } from '@playwright/test';
import pg from 'pg';
import { assignLotOnDetail, changeable, connector, freshLot, someConnectors, signIn, waitForServiceWorker } from './helpers';

/**
 * The field journey on PostgreSQL: scripts/test.sh runs this spec alone with E2E_DATABASE_URL set,
 * so the e2e server (playwright.config.ts) uses that database instead of PGlite. The rest of the
 * e2e suite covers the same screens on PGlite.
 */
const databaseUrl = process.env.E2E_DATABASE_URL;
test.skip(!databaseUrl, 'runs against PostgreSQL only: E2E_DATABASE_URL (scripts/test.sh)');

/** The connector's row as PostgreSQL has it, read past the server. */
async function storedConnector(id: string): Promise<{ parking_lot: string | null; version: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const res = await client.query<{ parking_lot: string | null; version: number }>(
      'select parking_lot, version from connectors where connector_id = $1',
      [id],
    );
    expect(res.rows).toHaveLength(1);
    return res.rows[0];
  } finally {
    await client.end();
  }
}

test('on PostgreSQL: sign in, assign a parking lot offline, and it arrives exactly once when back online', async ({ page, context }) => {
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  const target = (await someConnectors(page)).find(changeable);
  expect(target, 'a connector whose parking lot the operator may change').toBeTruthy();
  const { connectorId, cpId, version } = target!;
  expect(await storedConnector(connectorId)).toEqual({ parking_lot: target!.address.parkingLot, version });

  await page.goto(`/stationen/${encodeURIComponent(connectorId)}`);
  await expect(page.getByRole('main')).toContainText(cpId);
  await context.setOffline(true);
  const lot = freshLot(3);
  await assignLotOnDetail(page, lot);
  await expect(page.getByRole('button', { name: /^Ausgang,/ })).toHaveAccessibleName('Ausgang, 1 Änderung ausstehend');
  // Nothing reached the server while offline.
  expect(await storedConnector(connectorId)).toEqual({ parking_lot: target!.address.parkingLot, version });

  await context.setOffline(false);
  await expect.poll(async () => (await connector(page, connectorId)).address.parkingLot, { timeout: 30_000 }).toBe(lot);
  await expect(page.getByRole('button', { name: /^Ausgang,/ })).toHaveAccessibleName('Ausgang, nichts ausstehend', { timeout: 15_000 });
  // Exactly once: the server moves the version on by one per accepted write.
  expect((await connector(page, connectorId)).version).toBe(version + 1);
  expect(await storedConnector(connectorId)).toEqual({ parking_lot: lot, version: version + 1 });
});
