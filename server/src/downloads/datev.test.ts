import { sql } from 'drizzle-orm';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { DATEV_COLUMNS, datevText, euVatIdField, toWin1252 } from './datev';
import { FX, FX_STRIPE, insertExportFixture, insertStripeBills } from './export-fixture';

let h: Harness;
let partner: string;

beforeAll(async () => {
  h = await createHarness();
  await insertExportFixture(h.db, demoAccounts.partner.email);
  partner = (await h.login('partner')).access_token;
});
afterAll(() => h?.close());

const url = (q = '') =>
  `/booking-service/bookings/generate/datev?cpoId=${FX.cpoId}&locationIds=all&paymentMethod=SEPA&startDate=2026-03-01&endDate=2026-03-31${q}`;
const get = (path: string) => h.app.request(path, { headers: { authorization: `Bearer ${partner}` } });

/** A DATEV line split into fields, quotes kept (a ';' inside quotes is part of the text). */
const split = (line: string) => {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    if (ch === ';' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
};

describe('GET /bookings/generate/datev (EXTF Buchungsstapel)', () => {
  it('writes the header, the column line and two postings per bill, field by field, in Windows-1252', async () => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=windows-1252');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="EXTF_Buchungsstapel_\d{8}\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    // Windows-1252: ü is one byte 0xFC, no UTF-8 sequence, no BOM.
    expect(bytes[0]).toBe('"'.charCodeAt(0));
    expect(bytes.includes(Buffer.from('Jürgen', 'latin1'))).toBe(true);
    expect(bytes.includes(Buffer.from('Jürgen', 'utf8'))).toBe(false);
    const text = iconv.decode(bytes, 'win1252');
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, columns, ...lines] = text.slice(0, -2).split('\r\n');

    const hf = split(header);
    expect(hf).toHaveLength(31);
    expect(hf.slice(0, 5)).toEqual(['"EXTF"', '700', '21', '"Buchungsstapel"', '13']);
    expect(hf[5]).toMatch(/^\d{17}$/);
    expect(
      Date.now() -
        Date.parse(
          `${hf[5].slice(0, 4)}-${hf[5].slice(4, 6)}-${hf[5].slice(6, 8)}T${hf[5].slice(8, 10)}:${hf[5].slice(10, 12)}:${hf[5].slice(12, 14)}Z`,
        ),
    ).toBeLessThan(60_000);
    expect(hf.slice(6, 22)).toEqual([
      '',
      '"RE"',
      '"CPO Cockpit"',
      '""',
      '29098',
      '55003',
      '20260101',
      '4',
      '20260301',
      '20260331',
      '"Rechnungen SEPA"',
      '""',
      '1',
      '0',
      '0',
      '"EUR"',
    ]);
    expect(hf.slice(22)).toEqual(['', '""', '', '', '""', '', '', '', '""']);

    expect(columns.split(';')).toEqual([...DATEV_COLUMNS]);
    expect(DATEV_COLUMNS).toHaveLength(125);
    expect(DATEV_COLUMNS[36]).toBe('KOST1 - Kostenstelle');
    expect(DATEV_COLUMNS[39]).toBe('EU-Land u. UStID (Bestimmung)');

    const rows = lines.map(split);
    expect(rows.every((r) => r.length === 125)).toBe(true);
    const picked = rows.map((r) => [r[0], r[1], r[2], r[6], r[7], r[8], r[9], r[10], r[13], r[36], r[39]]);
    expect(picked).toEqual([
      ['100,00', '"S"', '"EUR"', '10001', '8400', '"40"', '0203', '"RE-2026-DLX-0001"', '"Netto Weiß, Jürgen"', '"100"', '"DE811907980"'],
      ['19,00', '"S"', '"EUR"', '10001', '1776', '""', '0203', '"RE-2026-DLX-0001"', '"USt Weiß, Jürgen"', '"100"', '"DE811907980"'],
      [
        '12,61',
        '"S"',
        '"EUR"',
        '10002',
        '8400',
        '"40"',
        '0503',
        '"RE-2026-DLX-0002"',
        `"Netto @SUM(1), =HYPERLINK(""http://x"")"`,
        '"200"',
        '"ATU12345678"',
      ],
      [
        '2,40',
        '"S"',
        '"EUR"',
        '10002',
        '1776',
        '""',
        '0503',
        '"RE-2026-DLX-0002"',
        `"USt @SUM(1), =HYPERLINK(""http://x"")"`,
        '"200"',
        '"ATU12345678"',
      ],
    ]);
    const filled = new Set([0, 1, 2, 6, 7, 8, 9, 10, 13, 36, 39]);
    expect(rows.every((r) => r.every((v, i) => filled.has(i) || v === ''))).toBe(true);
  });

  it("balances: what the debit accounts get (Soll) is what the ledger accounts get (Haben), the bills' gross", async () => {
    const text = iconv.decode(Buffer.from(await (await get(url())).arrayBuffer()), 'win1252');
    const rows = text.trim().split('\r\n').slice(2).map(split);
    const cents = (v: string) => Number(v.replace(',', ''));
    const soll = new Map<string, number>();
    const haben = new Map<string, number>();
    for (const r of rows) {
      expect(r[1]).toBe('"S"');
      soll.set(r[6], (soll.get(r[6]) ?? 0) + cents(r[0]));
      haben.set(r[7], (haben.get(r[7]) ?? 0) + cents(r[0]));
    }
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    expect(sum(soll)).toBe(sum(haben));
    expect(sum(soll)).toBe(11900 + 1501);
    expect(Object.fromEntries(soll)).toEqual({ '10001': 11900, '10002': 1501 });
    expect(Object.fromEntries(haben)).toEqual({ '8400': 11261, '1776': 2140 });
  });

  it('keeps a formula-like customer as text, answers 204, the ERP codes, and refuses a batch across two years', async () => {
    const text = iconv.decode(Buffer.from(await (await get(url())).arrayBuffer()), 'win1252');
    expect(text).not.toMatch(/(^|;)"?[=@+-]/m);
    expect((await get(url().replace('2026-03-01', '2025-03-01').replace('2026-03-31', '2025-03-31'))).status).toBe(204);
    const years = await h.request('GET', url().replace('2026-03-01', '2025-12-01'), { token: partner });
    expect(years.status).toBe(400);
    expect(years.body.issues).toEqual([{ path: 'endDate', message: 'datevOneYear' }]);
    await h.db.execute(sql.raw(`update erp_values set client_number = '55003' where cpo_id = 'DLX-OP'`));
    try {
      const noConsultant = await h.request('GET', url(), { token: partner });
      expect(noConsultant.status).toBe(404);
      expect(noConsultant.body).toMatchObject({
        errorCodeResponse: 'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
        errorDetail: { missing: 'consultantNumber' },
      });
    } finally {
      await h.db.execute(sql.raw(`update erp_values set client_number = '${FX.clientNumber}' where cpo_id = 'DLX-OP'`));
    }
    await h.db.execute(sql.raw(`update contracts set debit_account_nr = null where contract_key = 'DLX-C1'`));
    try {
      const noDebit = await h.request('GET', url(), { token: partner });
      expect(noDebit.status).toBe(422);
      expect(noDebit.body).toMatchObject({ errorCodeResponse: 'DEBIT_ACCOUNT_NR_MISSING', errorDetail: { endCustomerId: '900001' } });
    } finally {
      await h.db.execute(sql.raw(`update contracts set debit_account_nr = '${FX.c1.debit}' where contract_key = 'DLX-C1'`));
    }
  });

  it('writes no posting of 0,00: a 0 % bill has its net line only, a 0 € bill none', async () => {
    const postings = async () => {
      const text = iconv.decode(Buffer.from(await (await get(url())).arrayBuffer()), 'win1252');
      return text
        .trim()
        .split('\r\n')
        .slice(2)
        .map(split)
        .map((r) => `${r[10]} ${r[7]} ${r[0]}`);
    };
    await h.db.execute(
      sql.raw(`update bills set vat_percent = 0, vat_costs = 0, total_taxed_costs = net_costs where bill_number = 'RE-2026-DLX-0001'`),
    );
    await h.db.execute(
      sql.raw(`update bills set net_costs = 0, vat_costs = 0, total_taxed_costs = 0 where bill_number = 'RE-2026-DLX-0002'`),
    );
    try {
      expect(await postings()).toEqual(['"RE-2026-DLX-0001" 8400 100,00']);
    } finally {
      await h.db.execute(
        sql.raw(`update bills set vat_percent = 19, vat_costs = 19, total_taxed_costs = 119 where bill_number = 'RE-2026-DLX-0001'`),
      );
      await h.db.execute(
        sql.raw(`update bills set net_costs = 12.61, vat_costs = 2.40, total_taxed_costs = 15.01 where bill_number = 'RE-2026-DLX-0002'`),
      );
    }
    expect(await postings()).toHaveLength(4);
  });

  it('writes what Windows-1252 lacks as its nearest letters, and only the rest as ?', async () => {
    expect(toWin1252('Jürgen Weiß, Chloé, 5 €')).toBe('Jürgen Weiß, Chloé, 5 €');
    expect(toWin1252('Łukasz Dvořák, Şahin Ćosić, Øystein Ångström')).toBe('Lukasz Dvorák, Sahin Cosic, Øystein Ångström');
    expect(toWin1252('Őrs Ştefănescu, ﬁnanz, Hofstraße ½, Ǆemal')).toBe('Ors Stefanescu, finanz, Hofstraße ½, DŽemal');
    expect(toWin1252('Đorđe Nguyễn, ħ‐ı')).toBe('Dorde Nguyen, h-i');
    expect(toWin1252('Жанна 😀')).toBe('????? ?');
    // Cut after the letters are taken apart: DATEV's length holds for what is written.
    expect(datevText('ﬁﬁﬁ', 4)).toBe('"fifi"');

    await h.db.execute(
      sql.raw(
        `update bills set end_customer_first_name = 'Łukasz', end_customer_last_name = 'Dvořák' where bill_number = 'RE-2026-DLX-0001'`,
      ),
    );
    try {
      const bytes = Buffer.from(await (await get(url())).arrayBuffer());
      const text = iconv.decode(bytes, 'win1252');
      expect(text).toContain('"Netto Dvorák, Lukasz"');
      expect(text).not.toContain('?');
    } finally {
      await h.db.execute(
        sql.raw(
          `update bills set end_customer_first_name = 'Jürgen', end_customer_last_name = 'Weiß' where bill_number = 'RE-2026-DLX-0001'`,
        ),
      );
    }
  });

  it("writes the EU VAT id field only with an EU VAT id: the contract's numeric ERP id leaves it empty, never cut", () => {
    expect(euVatIdField('DE811907980')).toBe('"DE811907980"');
    expect(euVatIdField(' atu 12345678 ')).toBe('"ATU12345678"');
    expect(euVatIdField('123456789')).toBe('""');
    expect(euVatIdField('1234567890123456789012345678')).toBe('""');
    expect(euVatIdField('US123456789')).toBe('""');
    expect(euVatIdField('DE1234567890123456')).toBe('""');
  });

  it("writes a business customer's own VAT id (BT-48) in 'EU-Land u. UStID', a private customer's field empty", async () => {
    await h.db.execute(sql.raw(`update contracts set company_name = null, customer_vat_id = null where contract_key = '${FX.c1.key}'`));
    try {
      const rows = iconv
        .decode(Buffer.from(await (await get(url())).arrayBuffer()), 'win1252')
        .trim()
        .split('\r\n')
        .slice(2)
        .map(split);
      const field = DATEV_COLUMNS.indexOf('EU-Land u. UStID (Bestimmung)');
      const number = DATEV_COLUMNS.indexOf('Belegfeld 1');
      const of = (bill: string) => new Set(rows.filter((r) => r[number] === `"${bill}"`).map((r) => r[field]));
      expect(of('RE-2026-DLX-0001')).toEqual(new Set(['""']));
      expect(of('RE-2026-DLX-0002')).toEqual(new Set(['"ATU12345678"']));
    } finally {
      await h.db.execute(
        sql.raw(
          `update contracts set company_name = '${FX.c1.company}', customer_vat_id = '${FX.c1.customerVatId}' where contract_key = '${FX.c1.key}'`,
        ),
      );
    }
  });

  it("refuses a debtor account that is not one digit longer than the ledger accounts (DATEV's rule), before the first byte; the ERP XML takes it", async () => {
    await h.db.execute(sql.raw(`update contracts set debit_account_nr = '100010' where contract_key = '${FX.c1.key}'`));
    try {
      const res = await get(url());
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        errorCodeResponse: 'ERP_VALUE_INVALID',
        errorDetail: { invalid: 'debitAccountNr', endCustomerId: FX.c1.endCustomerId, endCustomerIds: [FX.c1.endCustomerId] },
      });
      expect((await get(url().replace('/generate/datev', '/generate/xml'))).status).toBe(200);
    } finally {
      await h.db.execute(sql.raw(`update contracts set debit_account_nr = '${FX.c1.debit}' where contract_key = '${FX.c1.key}'`));
    }
    expect((await get(url())).status).toBe(200);
  });
});

describe("Stripe's bills in the DATEV file (issue 35)", () => {
  beforeAll(() => insertStripeBills(h.db));
  const stripeUrl = (pm: string) => url().replace('paymentMethod=SEPA', `paymentMethod=${pm}`);
  const lines = async (pm: string) => {
    const res = await get(stripeUrl(pm));
    expect(res.status).toBe(200);
    const text = iconv.decode(Buffer.from(await res.arrayBuffer()), 'win1252');
    const [header, columns, ...rows] = text.slice(0, -2).split('\r\n');
    return { header: split(header), columns, rows: rows.map(split) };
  };

  it.each(FX_STRIPE.bills)('posts the $pm bill $n on the clearing account, in the published EXTF layout', async (b) => {
    const { header, columns, rows } = await lines(b.pm);
    expect(header).toHaveLength(31);
    expect(header.slice(0, 5)).toEqual(['"EXTF"', '700', '21', '"Buchungsstapel"', '13']);
    expect(header[16]).toBe(`"Rechnungen ${b.pm}"`);
    expect(columns.split(';')).toEqual([...DATEV_COLUMNS]);
    expect(rows.every((r) => r.length === 125)).toBe(true);
    const day = `${b.at.slice(8, 10)}${b.at.slice(5, 7)}`;
    expect(rows.map((r) => [r[0], r[1], r[6], r[7], r[8], r[9], r[10]])).toEqual([
      [b.net.replace('.', ','), '"S"', FX_STRIPE.clearing, FX.netLedger, '"40"', day, `"${b.n}"`],
      [b.vat.replace('.', ','), '"S"', FX_STRIPE.clearing, FX.taxLedger, '""', day, `"${b.n}"`],
    ]);
  });

  it("needs no debtor account of DATEV length for Stripe, but a clearing account of the ledger accounts' length", async () => {
    // The debtor is not posted: a debtor account of another length does not stop a Stripe file.
    await h.db.execute(sql.raw(`update contracts set debit_account_nr = '100010' where contract_key = '${FX.c1.key}'`));
    try {
      expect((await get(stripeUrl('STRIPE_SEPA'))).status).toBe(200);
      expect((await get(url())).status).toBe(422);
    } finally {
      await h.db.execute(sql.raw(`update contracts set debit_account_nr = '${FX.c1.debit}' where contract_key = '${FX.c1.key}'`));
    }
    await h.db.execute(
      sql.raw(`update erp_values set clearing_account_nr = '13600' where cpo_id = 'DLX-OP' and payment_method = 'STRIPE_SEPA'`),
    );
    try {
      const res = await get(stripeUrl('STRIPE_SEPA'));
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({
        errorCodeResponse: 'ERP_VALUE_INVALID',
        errorDetail: { invalid: 'clearingAccountNr', value: '13600' },
      });
    } finally {
      await h.db.execute(
        sql.raw(
          `update erp_values set clearing_account_nr = '${FX_STRIPE.clearing}' where cpo_id = 'DLX-OP' and payment_method = 'STRIPE_SEPA'`,
        ),
      );
    }
  });
});
