import { expect, test, type Page } from '@playwright/test';
import { bearer, changeable, rowOf, signIn, someConnectors, type ConnectorRow } from './helpers';

/** Issue 23, 'Data and rules': what the screens show of the rules the server keeps. */

type Row = ConnectorRow & { locationId: string };

const api = async (page: Page, method: 'GET' | 'POST', path: string, data?: unknown) => {
  const headers = { Authorization: await bearer(page), 'Idempotency-Key': crypto.randomUUID() };
  const res = method === 'GET' ? await page.request.get(path, { headers }) : await page.request.post(path, { headers, data });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: unknown }).data;
};

/** The value beside a label in one of the detail's fact lists. */
const fact = (page: Page, label: string) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test('bulk parking lots: one lot twice is caught in step 1, naming the other; the batch goes as one request', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'operator');
  // Two changeable connectors of one location, on the first page of its stations tab (lots are per location).
  const rows = (await someConnectors(page)) as Row[];
  let pair: Row[] | undefined;
  for (const locationId of new Set(rows.map((r) => r.locationId))) {
    const tab = (await api(page, 'GET', `/bff/connectors/get-by-cpo?page=0&size=10&locationId=${locationId}`)) as { response: Row[] };
    const ok = tab.response.filter(changeable);
    if (ok.length >= 2) {
      pair = ok.slice(0, 2);
      break;
    }
  }
  expect(pair, 'a location with two changeable connectors').toBeTruthy();
  const [a, b] = pair as [Row, Row];

  await page.goto(`/standorte/${a.locationId}`);
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await expect(rowOf(page, b.connectorId)).toBeVisible();
  for (const id of [a.connectorId, b.connectorId]) await rowOf(page, id).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  const shown = (id: string) => id.slice(id.lastIndexOf('_') + 1);
  const fieldA = dialog.getByLabel(`Parkplatz für ${a.cpId} · Ladepunkt ${shown(a.connectorId)}`);
  const fieldB = dialog.getByLabel(`Parkplatz für ${b.cpId} · Ladepunkt ${shown(b.connectorId)}`);
  const lot = `D${Date.now().toString(36).slice(-3).toUpperCase()}`;
  await fieldA.fill(lot);
  await fieldB.fill(lot);
  await expect(dialog).toContainText(
    `Parkplatz ${lot} ist in der Auswahl mehrfach vergeben (auch: ${a.cpId} · Ladepunkt ${shown(a.connectorId)})`,
  );
  await expect(dialog.getByRole('button', { name: 'Weiter' })).toBeDisabled();

  const sent: unknown[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/connectors/update-parking-lots')) sent.push(req.postDataJSON());
  });
  await fieldB.fill(`${lot.slice(0, 4)}Y`);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(rowOf(page, b.connectorId).getByTestId('station-parking-lot')).toHaveText(`${lot.slice(0, 4)}Y`, { timeout: 15_000 });
  await expect(rowOf(page, a.connectorId).getByTestId('station-parking-lot')).toHaveText(lot);
  expect(sent).toHaveLength(1);
  expect((sent[0] as unknown[]).length).toBe(2);
});

test('the location detail counts stations and Ladepunkte apart and shows the requested infrastructure', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'operator');
  const list = (await api(page, 'GET', '/bff/locations/get-by-cpo?page=0&size=100')) as {
    response: {
      locationId: string;
      cpoId: string;
      numOfChargingStations: {
        totalNrChargingStation: number;
        removedNrChargingStation: number;
        totalNrChargePoints: number;
        removedNrChargePoints: number;
      };
    }[];
  };
  const withDouble = list.response.find(
    (l) => l.numOfChargingStations.totalNrChargePoints > l.numOfChargingStations.totalNrChargingStation,
  );
  expect(withDouble, 'a location with a double station').toBeTruthy();
  const n = withDouble!.numOfChargingStations;
  await page.goto(`/standorte/${withDouble!.locationId}`);
  await expect(fact(page, 'Ladestationen')).toHaveText(String(n.totalNrChargingStation - n.removedNrChargingStation));
  await expect(fact(page, 'Ladepunkte')).toHaveText(String(n.totalNrChargePoints - n.removedNrChargePoints));

  const created = (await api(page, 'POST', '/bff/locations/location', {
    locationName: `Tiefgarage Wunsch ${Date.now().toString(36)}`,
    locationAddress: { street: 'Wunschweg 1', zipCode: '10115', city: 'Berlin' },
    cpoId: withDouble!.cpoId,
    cpoName: 'egal',
    wallBoxesData: [
      { numOfChargingStations: 3, chargingStationModel: 'ABL eMH1' },
      { numOfChargingStations: 2, chargingStationModel: 'ABL eMH3 Twin' },
    ],
    isEmsConnected: true,
    emsModel: 'Smart1 EMS',
    emsId: 'EMS-23',
  })) as { locationId: string };
  await page.goto(`/standorte/${created.locationId}`);
  const requested = page.getByTestId('requested-infrastructure');
  await expect(requested).toContainText('3 × ABL eMH1');
  await expect(requested).toContainText('2 × ABL eMH3 Twin');
  await expect(fact(page, 'Ladestationen')).toHaveText('0');
});

test("an end customer's IBAN is stored compact and shown masked on the detail", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, 'operator');
  const locations = (await api(page, 'GET', '/bff/locations/get-by-cpo-for-dropdown')) as {
    locationId: string;
    cpoId: string;
    parkingLots: string[];
  }[];
  const loc = locations.find((l) => l.parkingLots.length > 0)!;
  const id = Date.now().toString(36);
  const created = (await api(page, 'POST', '/contract-management/create-contract', {
    endCustomerId: `IB${id}`.toUpperCase(),
    cpoId: loc.cpoId,
    userType: 'REGULAR',
    firstName: 'Iris',
    lastName: 'Bank',
    email: `iris.${id}@example.de`,
    contractAddress: { street: 'Kontoweg 1', zipCode: '10115', city: 'Berlin' },
    locationId: loc.locationId,
    parkingLotNumbers: [loc.parkingLots[0]],
    authType: 'APP',
    billingType: 'WITH_BILLING',
    billingCycle: 'MONTHLY',
    contractInfo: { startDate: '2027-01-01', fixTariff: 9.9, varTariff: 0.39 },
    paymentMethod: 'SEPA',
    contractPaymentDetails: { contractMandateReference: `M-${id}`, contractIban: 'de89 3704 0044 0532 0130 00' },
  })) as { contractKey: string };
  await page.goto(`/nutzer/${created.contractKey}`);
  await expect(page.getByText('DE89 •••• 3000')).toBeVisible();
  await expect(page.getByText('DE89370400440532013000')).toHaveCount(0);
});
