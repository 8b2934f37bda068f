import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const accounts = {
  admin: { email: 'admin@cockpit.example', password: 'Admin-Demo-2026' },
  operator: { email: 'operator@cockpit.example', password: 'Operator-Demo-2026' },
  partner: { email: 'partner@cockpit.example', password: 'Partner-Demo-2026' },
} as const;
export type AccountName = keyof typeof accounts;

export async function signIn(page: Page, who: AccountName) {
  const { email, password } = accounts[who];
  await page.goto('/login');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel(/^Passwort\*?$/).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/cockpit$/);
}

/**
 * Replaces the stored session as the app keeps it: the spec's localStorage keys and the durable
 * IndexedDB copy (src/auth/durable-session.ts), which a start would otherwise put back.
 */
export async function setStoredTokens(page: Page, tokens: { accessToken: string; refreshToken: string }) {
  await page.evaluate(async ({ accessToken, refreshToken }) => {
    localStorage.setItem('accessToken', accessToken);
    localStorage.setItem('refreshToken', refreshToken);
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('cpo-cockpit-session', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('tokens');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('tokens', 'readwrite');
        tx.objectStore('tokens').put({ accessToken, refreshToken }, 'pair');
        tx.oncomplete = () => {
          open.result.close();
          resolve();
        };
        tx.onerror = () => reject(tx.error);
      };
    });
  }, tokens);
}

/** No serious or critical axe violations (DESIGN.md budgets). */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Waits until the service worker has installed (precache complete) and controls the page. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}

// ---- stations (shared by the station and field specs) ------------------------------------------

export interface ConnectorRow {
  connectorId: string;
  cpId: string;
  connectorStatus: string;
  address: { parkingLot: string | null };
  version: number;
}

export async function bearer(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(token).toBeTruthy();
  return `Bearer ${token}`;
}

/** The first page of the list as the UI asks for it (same order, same size). */
export async function firstPage(page: Page): Promise<ConnectorRow[]> {
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=10', { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { response: ConnectorRow[] } }).data.response;
}

/** Up to 100 connectors of the signed-in user, to pick one in a given state. */
export async function someConnectors(page: Page): Promise<ConnectorRow[]> {
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=100', { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { response: ConnectorRow[] } }).data.response;
}

/** On a station's page: 'Aktionen' → 'Parkplatz zuweisen', enter `lot`, confirm and save. */
export async function assignLotOnDetail(page: Page, lot: string) {
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(lot);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
}

/** GET /bff/connectors/{id} with the page's token, or with `token` when given. */
export async function connector(page: Page, id: string, token?: string): Promise<ConnectorRow> {
  const auth = token ? `Bearer ${token}` : await bearer(page);
  const res = await page.request.get(`/bff/connectors/${encodeURIComponent(id)}`, { headers: { Authorization: auth } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: ConnectorRow }).data;
}

export const changeable = (c: ConnectorRow) =>
  c.connectorStatus === 'IDLE' || (c.connectorStatus === 'CONNECTED_UNAVAILABLE' && !!c.address.parkingLot);

export const rowOf = (page: Page, connectorId: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `Details zu Ladepunkt ${connectorId}`, exact: true }) });

/** A fresh lot (≤ 5 characters for n < 10) unlikely to collide with the seed's. */
export const freshLot = (n: number) => `Z${(Date.now() + n).toString(36).slice(-3).toUpperCase()}${n}`;

export async function assignLots(page: Page, lots: Record<string, string>) {
  for (const id of Object.keys(lots)) await rowOf(page, id).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  const fields = dialog.getByRole('textbox');
  await expect(fields).toHaveCount(Object.keys(lots).length);
  for (const [id, lot] of Object.entries(lots)) {
    const shown = id.slice(id.lastIndexOf('_') + 1);
    const cpId = id.slice(0, id.lastIndexOf('_'));
    await dialog.getByLabel(`Parkplatz für ${cpId} · Ladepunkt ${shown}`).fill(lot);
  }
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/**
 * xmllint's verdict on an XML file against a schema of the repository (a path from its root):
 * 'ok', or what xmllint printed.
 */
export function xmllint(xml: string | Buffer, schema: string) {
  const file = join(mkdtempSync(join(tmpdir(), 'e2e-xml-')), 'file.xml');
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--noout', '--schema', join(process.cwd(), schema), file], { stdio: 'pipe' });
    return 'ok';
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}
