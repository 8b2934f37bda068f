import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { FX, FX_BILLS, FX_REQUESTS, insertExportFixture } from './export-fixture';

let h: Harness;
let tokens: Record<'admin' | 'operator' | 'partner', string>;

beforeAll(async () => {
  h = await createHarness();
  await insertExportFixture(h.db, demoAccounts.partner.email);
  tokens = {
    admin: (await h.login('admin')).access_token,
    operator: (await h.login('operator')).access_token,
    partner: (await h.login('partner')).access_token,
  };
});
afterAll(() => h?.close());

const get = (path: string, token: string) => h.app.request(path, { headers: { authorization: `Bearer ${token}` } });
const csvLines = async (res: Response) => {
  const bytes = Buffer.from(await res.arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString('utf8');
  expect(text.endsWith('\r\n')).toBe(true);
  expect(text.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  return text.split('\r\n').slice(0, -1);
};
const range = `startDate=${FX.march.startDate}&endDate=${FX.march.endDate}`;

describe('GET /bookings/charging-history/export over locations', () => {
  const url = (q: string) => `/booking-service/bookings/charging-history/export?${q}`;

  it('writes the requests of the locations, charging type and range field by field, newest first', async () => {
    const res = await get(url(`${range}&locationIds=${FX.loc1},${FX.loc2}&exportType=CSV&chargingType=NORMAL`), tokens.partner);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="Ladehistorie_\d{2}\.\d{2}\.\d{4}\.csv"/);
    const [header, ...rows] = await csvLines(res);
    expect(header).toBe(
      'Transaktions-ID;Kundennummer;Name;Standort;Adresse;Parkplatz;Autorisierung;RFID-Seriennummer;RFID-Tag;Ladeart;Status;Beginn;Ende;Letzte Aktualisierung;Energie (kWh);Kosten (EUR)',
    );
    expect(rows).toEqual([
      `DLX-T3;900001;Jürgen Weiß;Depot Nord;Nordring 2, 90411 Nürnberg;;App;;;Normal;Beendet;20.03.2026 13:00;20.03.2026 14:00;20.03.2026 14:00;30,500;9,15`,
      `DLX-T2;900002;"'=HYPERLINK(""http://x"") @SUM(1)";Parkhaus Müllerstraße;Müllerstraße 5, 80469 München;;App;;;Normal;Beendet;04.03.2026 19:00;04.03.2026 20:00;04.03.2026 20:00;7,000;2,10`,
      `DLX-T1;900001;Jürgen Weiß;Parkhaus Müllerstraße;Müllerstraße 5, 80469 München;;App;;;Normal;Beendet;03.03.2026 08:15;03.03.2026 09:15;03.03.2026 09:15;12,345;4,56`,
    ]);
  });

  it("reads 'all' as every location of the caller's, the charging type AD_HOC as asked", async () => {
    const res = await get(url(`${range}&locationIds=all&chargingType=AD_HOC`), tokens.partner);
    const rows = (await csvLines(res)).slice(1);
    const [{ n }] = (
      (await h.db.execute(sql`
      select count(*)::int as n from charging_requests r join operators o on o.cpo_id = r.cpo_id
      join dashboard_users u on u.customer_id = o.customer_id
      where u.email = ${demoAccounts.partner.email} and r.charging_type = 'AD_HOC'
        and r.start_date >= '2026-02-28T23:00:00Z' and r.start_date < '2026-03-31T22:00:00Z'`)) as unknown as { rows: { n: number }[] }
    ).rows;
    expect(rows).toHaveLength(n);
    expect(rows.map((r) => r.split(';')[0])).toContain('DLX-T4');
    expect(rows.every((r) => r.split(';')[9] === 'Ad-hoc')).toBe(true);
    expect(FX_REQUESTS.filter((r) => r.type === 'AD_HOC').map((r) => r.id)).toEqual(['DLX-T4']);
  });

  it('answers 204 for an empty range, 404 for the whole request when one location is foreign, 400 for bad input', async () => {
    expect((await get(url(`startDate=2025-01-01&endDate=2025-01-31&locationIds=${FX.loc1}`), tokens.partner)).status).toBe(204);
    const foreign = await h.request('GET', url(`${range}&locationIds=${FX.loc1}`), { token: tokens.operator });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ errorCodeResponse: 'LOCATION_NOT_FOUND' });
    const mixed = await h.request('GET', url(`${range}&locationIds=${FX.loc1},NOPE`), { token: tokens.partner });
    expect(mixed.status).toBe(404);
    for (const q of [
      `${range}&locationIds=`,
      `${range}&locationIds=,`,
      `startDate=2026-03-31&endDate=2026-03-01&locationIds=all`,
      `${range}&locationIds=all&chargingType=FAST`,
    ]) {
      expect((await h.request('GET', url(q), { token: tokens.partner })).status, q).toBe(400);
    }
  });
});

describe('GET /bookings/standard-csv', () => {
  const url = (q: string) => `/booking-service/bookings/standard-csv?${q}`;

  it('writes one line per bill of the range, net, VAT and gross with a decimal comma', async () => {
    const res = await get(url(`${range}&locationIds=${FX.loc1},${FX.loc2}&exportType=CSV`), tokens.partner);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="StandardBills\d{8}\.csv"/);
    const [header, ...rows] = await csvLines(res);
    expect(header).toBe(
      'Rechnungsnummer;Rechnungsdatum;Leistungszeitraum von;Leistungszeitraum bis;Kundennummer;Vorname;Nachname;Nutzertyp;Zahlungsart;Status;Standort;Energie (kWh);Netto (EUR);USt-Satz (%);USt (EUR);Brutto (EUR)',
    );
    expect(rows).toEqual([
      'RE-2026-DLX-0001;02.03.2026;01.02.2026;28.02.2026;900001;Jürgen;Weiß;Regulär;SEPA-Lastschrift;Erstellt;Parkhaus Müllerstraße;250,000;100,00;19,00;19,00;119,00',
      `RE-2026-DLX-0002;05.03.2026;01.02.2026;28.02.2026;900002;"'=HYPERLINK(""http://x"")";'@SUM(1);Regulär;SEPA-Lastschrift;Erstellt;Depot Nord;31,250;12,61;19,00;2,40;15,01`,
      'RE-2026-DLX-0003;10.03.2026;01.03.2026;09.03.2026;900001;Jürgen;Weiß;Regulär;Überweisung;Erstellt;Parkhaus Müllerstraße;120,500;50,00;19,00;9,50;59,50',
    ]);
    expect(FX_BILLS.filter((b) => b.at.startsWith('2026-03'))).toHaveLength(rows.length);
  });

  it('answers 204 without bills in the range and 404 for a foreign location', async () => {
    expect((await get(url(`startDate=2025-01-01&endDate=2025-01-31&locationIds=all`), tokens.partner)).status).toBe(204);
    const foreign = await h.request('GET', url(`${range}&locationIds=${FX.loc2}`), { token: tokens.operator });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCodeResponse).toBe('LOCATION_NOT_FOUND');
  });
  it('is for Partner and Operator accounts and admins only (spec 3 §6), whatever else a customer is', async () => {
    const q = url(`startDate=2025-01-01&endDate=2025-01-31&locationIds=all`);
    for (const token of [tokens.partner, tokens.operator, tokens.admin]) expect((await get(q, token)).status).toBe(204);
    // No other customer type exists today (customers_type_chk): one is made for the test, then undone.
    const customer = sql`(select customer_id from dashboard_users where email = ${demoAccounts.operator.email})`;
    await h.db.execute(sql`alter table customers drop constraint customers_type_chk`);
    await h.db.execute(sql`update customers set customer_type = 'EndCustomer' where customer_id = ${customer}`);
    try {
      const res = await h.request('GET', q, { token: tokens.operator });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ errorCodeResponse: 'FORBIDDEN', errorDetail: { tab: 'invoices' } });
      // The charging history stays theirs.
      expect(
        (
          await get(
            `/booking-service/bookings/charging-history/export?startDate=2025-01-01&endDate=2025-01-31&locationIds=all`,
            tokens.operator,
          )
        ).status,
      ).toBe(204);
    } finally {
      await h.db.execute(sql`update customers set customer_type = 'Operator' where customer_id = ${customer}`);
      await h.db.execute(sql`alter table customers add constraint customers_type_chk check (customer_type in ('Operator', 'Partner'))`);
    }
  });
});
