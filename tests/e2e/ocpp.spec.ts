import { expect, test, type Page } from '@playwright/test';
import { SimulatedStation } from '../../server/src/ocpp/simulator/simulated-station';
import { demoStationPassword } from '../../server/src/seed/ocpp';
import { bearer, signIn, someConnectors } from './helpers';

/**
 * Real stations behind the dashboard (issue 27). The e2e server runs a few simulated stations of
 * its own (SIMULATED_STATIONS, server/src/main.ts); this journey starts one more here, in the test's
 * process, so that it decides when the station changes its status.
 */

const endpoint = () => `ws://localhost:${process.env.E2E_PORT ?? 8181}/ocpp`;
// The station acts only when the test says so.
const still = { statusEveryMs: 1e9, sessionEveryMs: 1e9, sessionLengthMs: 1e9, powerW: 11_000 };

interface Ocpp {
  connected: boolean;
  hasPassword: boolean;
}

async function ocppOf(page: Page, connectorId: string): Promise<Ocpp> {
  const res = await page.request.get(`/bff/connectors/${encodeURIComponent(connectorId)}/ocpp`, {
    headers: { Authorization: await bearer(page) },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: Ocpp }).data;
}

/** A station of the demo seed with the demo password that no simulator runs yet, all of its connectors active. */
async function idleStation(page: Page): Promise<{ cpId: string; connectors: number }> {
  const rows = await someConnectors(page);
  const byStation = new Map<string, typeof rows>();
  for (const row of rows) byStation.set(row.cpId, [...(byStation.get(row.cpId) ?? []), row]);
  for (const [cpId, list] of byStation) {
    if (!list.every((c) => c.connectorStatus === 'IDLE' || c.connectorStatus === 'CONNECTED_UNAVAILABLE')) continue;
    if (!list.some((c) => c.connectorId === `${cpId}_1`)) continue;
    const ocpp = await ocppOf(page, `${cpId}_1`);
    if (ocpp.hasPassword && !ocpp.connected) return { cpId, connectors: list.length };
  }
  throw new Error('no free station with a password in the first 100 connectors');
}

test('a station’s own status change shows without a reload; get and change configuration show what the station says', async ({ page }) => {
  await signIn(page, 'admin');
  const { cpId, connectors } = await idleStation(page);
  const station = new SimulatedStation({ cpId, connectors, tags: [] }, endpoint(), demoStationPassword, still);
  try {
    await station.start();
    await expect.poll(async () => (await ocppOf(page, `${cpId}_1`)).connected).toBe(true);
    await page.goto(`/stationen/${encodeURIComponent(`${cpId}_1`)}`);
    const ocppCard = page.getByRole('region', { name: 'Ladestation (OCPP)' });
    await expect(ocppCard.getByText('Verbunden', { exact: true })).toBeVisible();
    await expect(ocppCard.getByText('SIM-' + cpId)).toBeVisible();
    await expect(ocppCard.getByTestId('ocpp-status')).toHaveText('Available');

    // The station reports a car at connector 1: the open page follows, no reload.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await station.report(1, 'Preparing');
    const status = page.getByRole('region', { name: 'Aktueller Status' });
    await expect(status.getByText('Belegt')).toBeVisible({ timeout: 5_000 });
    await expect(ocppCard.getByTestId('ocpp-status')).toHaveText('Preparing');
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);

    // GetConfiguration: the station's keys with their values.
    await ocppCard.getByRole('button', { name: 'Stationsbefehle' }).click();
    await page.getByRole('menuitem', { name: 'Konfiguration abfragen' }).click();
    let dialog = page.getByRole('dialog', { name: 'Konfiguration abfragen' });
    await dialog.getByLabel(/^Schlüssel/).fill('HeartbeatInterval,MeterValueSampleInterval,NumberOfConnectors');
    await dialog.getByRole('button', { name: 'An die Ladestation senden' }).click();
    await expect(dialog.getByText('Angenommen')).toBeVisible();
    await expect(dialog.getByTestId('config-NumberOfConnectors')).toHaveText(String(connectors));
    await expect(dialog.getByTestId('config-MeterValueSampleInterval')).toHaveText('30');
    await dialog.getByRole('button', { name: 'Schließen' }).last().click();

    // ChangeConfiguration from the Actions menu, then asking the station again shows the new value.
    await page.getByRole('button', { name: 'Aktionen' }).click();
    await page.getByRole('menuitem', { name: 'Konfiguration ändern' }).click();
    dialog = page.getByRole('dialog', { name: 'Konfiguration ändern' });
    await dialog.getByLabel(/^Schlüssel/).fill('MeterValueSampleInterval');
    await dialog.getByLabel(/^Neuer Wert/).fill('45');
    await dialog.getByRole('button', { name: 'An die Ladestation senden' }).click();
    await expect(dialog.getByText('Angenommen')).toBeVisible();
    await dialog.getByRole('button', { name: 'Schließen' }).last().click();
    const configuration = page.getByRole('region', { name: 'Konfiguration der Ladestation' });
    await configuration.getByRole('button', { name: 'Ladestation erneut fragen' }).click();
    await expect(configuration.getByTestId('config-MeterValueSampleInterval')).toHaveText('45');

    // Every operation is in the history with who asked and the answer.
    const history = page.getByRole('region', { name: 'Befehlsverlauf' });
    await expect(history.getByTestId('ocpp-history-row')).toHaveCount(3);
    await expect(history.getByTestId('ocpp-history-row').first()).toContainText('admin@cockpit.example');
  } finally {
    await station.stop();
  }
});

test('a user who is not an admin sees only unlock, hard reset and trigger status notification', async ({ page }) => {
  await signIn(page, 'operator');
  const [first] = await someConnectors(page);
  await page.goto(`/stationen/${encodeURIComponent(first.connectorId)}`);
  await page.getByRole('button', { name: 'Stationsbefehle' }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Ladepunkt entriegeln', 'Hardware-Neustart', 'Statusmeldung anfordern']);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await expect(page.getByRole('menuitem', { name: 'Konfiguration ändern' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Passwort erneuern' })).toHaveCount(0);
});
