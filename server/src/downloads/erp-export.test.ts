import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { ERP_PATTERNS } from './erp-values';
import { FX, FX_STRIPE, insertExportFixture, insertStripeBills } from './export-fixture';

let h: Harness;
let tokens: Record<'admin' | 'operator' | 'partner', string>;
const dir = mkdtempSync(join(tmpdir(), 'erp-xml-'));
const XSD = join(import.meta.dirname, 'erp-export.xsd');

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

const march = `startDate=${FX.march.startDate}&endDate=${FX.march.endDate}`;
const url = (q = '') =>
  `/booking-service/bookings/generate/xml?cpoId=${FX.cpoId}&locationIds=${FX.loc1},${FX.loc2}&paymentMethod=SEPA&${march}${q}`;
const get = (path: string, token = tokens.partner) => h.app.request(path, { headers: { authorization: `Bearer ${token}` } });

/** xmllint's verdict on a file against the XSD: 'ok', or what it printed. */
export function validateXml(xml: string, name = 'file.xml') {
  const file = join(dir, name);
  writeFileSync(file, xml);
  try {
    execFileSync('xmllint', ['--noout', '--schema', XSD, file], { stdio: 'pipe' });
    return 'ok';
  } catch (e) {
    return String((e as { stderr?: Buffer }).stderr ?? e);
  }
}

const expectedBill = (b: {
  n: string;
  day: string;
  from: string;
  to: string;
  id: string;
  name: string;
  debit: string;
  cost: string;
  vat: string;
  gross: string;
  net: string;
  tax: string;
}) => `    <Bill>
      <BillNumber>${b.n}</BillNumber>
      <BillDate>${b.day}</BillDate>
      <ServicePeriod>
        <From>${b.from}</From>
        <To>${b.to}</To>
      </ServicePeriod>
      <EndCustomer>
        <EndCustomerId>${b.id}</EndCustomerId>
        <Name>${b.name}</Name>
        <DebitAccountNr>${b.debit}</DebitAccountNr>
        <CostCenterNr>${b.cost}</CostCenterNr>
        <VatId>${b.vat}</VatId>
      </EndCustomer>
      <VatPercent>19.00</VatPercent>
      <PostingLines>
        <PostingLine type="GROSS">
          <AccountNr>${b.debit}</AccountNr>
          <Side>DEBIT</Side>
          <Amount>${b.gross}</Amount>
        </PostingLine>
        <PostingLine type="NET">
          <AccountNr>8400</AccountNr>
          <Side>CREDIT</Side>
          <Amount>${b.net}</Amount>
          <CostCenterNr>${b.cost}</CostCenterNr>
        </PostingLine>
        <PostingLine type="VAT">
          <AccountNr>1776</AccountNr>
          <Side>CREDIT</Side>
          <Amount>${b.tax}</Amount>
        </PostingLine>
      </PostingLines>
    </Bill>`;

describe('GET /bookings/generate/xml', () => {
  it('writes the SEPA bills of the range with their postings, field by field, valid against the XSD', async () => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="ERPDaten_\d{8}\.xml"/);
    const xml = await res.text();
    expect(validateXml(xml)).toBe('ok');
    const createdAt = /<CreatedAt>([^<]+)<\/CreatedAt>/.exec(xml)![1];
    expect(Date.now() - Date.parse(createdAt)).toBeLessThan(60_000);
    expect(xml).toBe(`<?xml version="1.0" encoding="UTF-8"?>
<ErpExport xmlns="urn:cpo-cockpit:erp-export:1" version="1">
  <Header>
    <ClientNumber>29098/55003</ClientNumber>
    <CpoId>DLX-OP</CpoId>
    <CpoName>Ladepark Süd GmbH</CpoName>
    <PaymentMethod>SEPA</PaymentMethod>
    <PostingPeriod>
      <From>2026-03-01</From>
      <To>2026-03-31</To>
    </PostingPeriod>
    <Currency>EUR</Currency>
    <CreatedAt>${createdAt}</CreatedAt>
  </Header>
  <Bills>
${expectedBill({ n: 'RE-2026-DLX-0001', day: '2026-03-02', from: '2026-02-01', to: '2026-02-28', id: '900001', name: 'Jürgen Weiß', debit: '10001', cost: '100', vat: '19', gross: '119.00', net: '100.00', tax: '19.00' })}
${expectedBill({ n: 'RE-2026-DLX-0002', day: '2026-03-05', from: '2026-02-01', to: '2026-02-28', id: '900002', name: '=HYPERLINK(&quot;http://x&quot;) @SUM(1)', debit: '10002', cost: '200', vat: '19', gross: '15.01', net: '12.61', tax: '2.40' }).replaceAll('&quot;', '"')}
  </Bills>
  <Totals>
    <BillCount>2</BillCount>
    <DebitTotal>134.01</DebitTotal>
    <CreditTotal>134.01</CreditTotal>
  </Totals>
</ErpExport>`);
  });

  it('writes bank-transfer bills for admins too, and the XSD refuses a broken file', async () => {
    const res = await get(url().replace('paymentMethod=SEPA', 'paymentMethod=BANK_TRANSFER'), tokens.admin);
    const xml = await res.text();
    expect(validateXml(xml)).toBe('ok');
    expect(xml).toContain('<BillNumber>RE-2026-DLX-0003</BillNumber>');
    expect(xml).toContain('<BillCount>1</BillCount>');
    expect(validateXml(xml.replace('<Side>DEBIT</Side>', '<Side>SOLL</Side>'), 'broken.xml')).toMatch(/fails to validate/);
  });

  it('answers 204 for a range without bills, 403 for an operator customer, 404 for a foreign operator or location', async () => {
    expect((await get(url().replace(march, 'startDate=2025-01-01&endDate=2025-01-31'))).status).toBe(204);
    const operatorsOwn = (await h.request('GET', '/bff/cpos?page=0&size=10', { token: tokens.operator })).body.data.response[0].cpoId;
    const operatorCalls = await h.request('GET', url().replace(FX.cpoId, operatorsOwn).replace(`${FX.loc1},${FX.loc2}`, 'all'), {
      token: tokens.operator,
    });
    expect(operatorCalls.status).toBe(403);
    expect((await h.request('GET', url(), { token: tokens.operator })).body.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
    const ownOperator = await h.request(
      'GET',
      url().replace(`locationIds=${FX.loc1},${FX.loc2}`, 'locationIds=all').replace(FX.cpoId, 'NOPE'),
      { token: tokens.partner },
    );
    expect(ownOperator.status).toBe(404);
    expect(ownOperator.body.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
    const [other] = (
      (await h.db.execute(sql`select location_id as id from locations where cpo_id <> ${FX.cpoId} limit 1`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows;
    const foreign = await h.request('GET', url().replace(`locationIds=${FX.loc1},${FX.loc2}`, `locationIds=${FX.loc1},${other.id}`), {
      token: tokens.partner,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ errorCodeResponse: 'LOCATION_NOT_FOUND' });
  });

  /** Each code from the data set missing that value; the data is put back after each. */
  const cases: [string, string, string, number, unknown][] = [
    [
      'ERP_VALUE_NOT_FOUND',
      `delete from erp_values where cpo_id = 'DLX-OP' and payment_method = 'SEPA'`,
      'restoreErp',
      404,
      { cpoId: FX.cpoId, paymentMethod: 'SEPA' },
    ],
    [
      'CLIENT_NUMBER_MISSING',
      `update erp_values set client_number = ' ' where cpo_id = 'DLX-OP'`,
      'restoreErp',
      422,
      { missing: 'clientNumber' },
    ],
    [
      'NET_LEDGER_ACCOUNT_NUMBER_MISSING',
      `update erp_values set net_ledger_account_nr = '' where cpo_id = 'DLX-OP'`,
      'restoreErp',
      422,
      { missing: 'netLedgerAccountNr' },
    ],
    [
      'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
      `update erp_values set tax_ledger_account_nr = null where cpo_id = 'DLX-OP'`,
      'restoreErp',
      404,
      { missing: 'taxLedgerAccountNr' },
    ],
    [
      'BILLING_NOT_FOUND',
      `update bills set payment_method = 'STRIPE_SEPA' where cpo_id = 'DLX-OP' and payment_method = 'SEPA'`,
      'restoreBills',
      404,
      { paymentMethod: 'SEPA', billsWithOtherPaymentMethods: 3 },
    ],
    [
      'CONTRACT_NOT_FOUND',
      `update contracts set cpo_id = (select cpo_id from operators where cpo_id <> 'DLX-OP' limit 1) where contract_key = 'DLX-C2'`,
      'restoreContracts',
      404,
      { billNumbers: ['RE-2026-DLX-0002'] },
    ],
    [
      'DEBIT_ACCOUNT_NR_MISSING',
      `update contracts set debit_account_nr = null where contract_key = 'DLX-C2'`,
      'restoreContracts',
      422,
      { endCustomerId: '900002', endCustomerIds: ['900002'] },
    ],
    [
      'COST_CENTER_NR_MISSING',
      `update contracts set cost_center_number = '' where contract_key = 'DLX-C1'`,
      'restoreContracts',
      422,
      { endCustomerId: '900001' },
    ],
    [
      'VAT_ID_MISSING',
      `update contracts set vat_id = null where contract_key in ('DLX-C1', 'DLX-C2')`,
      'restoreContracts',
      422,
      { endCustomerIds: ['900001', '900002'] },
    ],
    [
      'XML_GENERATION_ERROR',
      `update bills set end_customer_last_name = 'Wei' || chr(1) || 'ß' where bill_number = 'RE-2026-DLX-0001'`,
      'restoreBills',
      422,
      { billNumbers: ['RE-2026-DLX-0001'] },
    ],
    // Values that are there but not what the XSD allows (erp-values.ts): refused before any byte.
    [
      'ERP_VALUE_INVALID',
      `update erp_values set net_ledger_account_nr = 'ER-8400/A' where cpo_id = 'DLX-OP'`,
      'restoreErp',
      422,
      { invalid: 'netLedgerAccountNr', value: 'ER-8400/A', expected: '4 to 8 digits', cpoId: FX.cpoId },
    ],
    [
      'ERP_VALUE_INVALID',
      `update erp_values set tax_ledger_account_nr = '177600000' where cpo_id = 'DLX-OP'`,
      'restoreErp',
      422,
      { invalid: 'taxLedgerAccountNr', value: '177600000' },
    ],
    [
      'ERP_VALUE_INVALID',
      `update contracts set debit_account_nr = '${'1'.repeat(30)}' where contract_key = 'DLX-C2'`,
      'restoreContracts',
      422,
      { invalid: 'debitAccountNr', expected: '1 to 9 digits', endCustomerId: '900002', endCustomerIds: ['900002'] },
    ],
    [
      'ERP_VALUE_INVALID',
      `update contracts set cost_center_number = 'KST 4' where contract_key = 'DLX-C1'`,
      'restoreContracts',
      422,
      { invalid: 'costCenterNumber', endCustomerIds: ['900001'] },
    ],
    [
      'ERP_VALUE_INVALID',
      `update bills set end_customer_last_name = repeat('x', 402) where bill_number = 'RE-2026-DLX-0001'`,
      'restoreBills',
      422,
      { invalid: 'text', billNumbers: ['RE-2026-DLX-0001'] },
    ],
    [
      'XML_GENERATION_ERROR',
      `update operators set cpo_name = 'Ladepark' || chr(27) || 'Süd' where cpo_id = 'DLX-OP'`,
      'restoreOperator',
      422,
      { cpoId: FX.cpoId, invalid: 'cpoName' },
    ],
  ];
  const restore: Record<string, string[]> = {
    restoreErp: [
      `delete from erp_values where cpo_id = 'DLX-OP'`,
      `insert into erp_values (cpo_id, client_number, net_ledger_account_nr, tax_ledger_account_nr, payment_method) values ('DLX-OP', '${FX.clientNumber}', '${FX.netLedger}', '${FX.taxLedger}', 'SEPA'), ('DLX-OP', '${FX.clientNumber}', '${FX.netLedger}', '${FX.taxLedger}', 'BANK_TRANSFER')`,
    ],
    restoreBills: [
      `update bills set payment_method = 'SEPA' where bill_number in ('RE-2026-DLX-0001', 'RE-2026-DLX-0002', 'RE-2026-DLX-0004')`,
      `update bills set end_customer_first_name = 'Jürgen', end_customer_last_name = 'Weiß' where bill_number = 'RE-2026-DLX-0001'`,
    ],
    restoreOperator: [`update operators set cpo_name = '${FX.cpoName}' where cpo_id = 'DLX-OP'`],
    restoreContracts: [
      `update contracts set cpo_id = 'DLX-OP', debit_account_nr = '${FX.c2.debit}', cost_center_number = '${FX.c2.cost}', vat_id = '${FX.c2.vat}' where contract_key = 'DLX-C2'`,
      `update contracts set debit_account_nr = '${FX.c1.debit}', cost_center_number = '${FX.c1.cost}', vat_id = '${FX.c1.vat}' where contract_key = 'DLX-C1'`,
    ],
  };
  it.each(cases)(
    'answers %s, with the detail naming what is missing, before any byte of XML',
    async (code, change, undo, status, detail) => {
      await h.db.execute(sql.raw(change));
      try {
        const res = await h.request('GET', url(), { token: tokens.partner });
        expect(res.status).toBe(status);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        expect(res.body.errorCodeResponse).toBe(code);
        expect(res.body.errorDetail).toMatchObject(detail as object);
      } finally {
        for (const s of restore[undo]) await h.db.execute(sql.raw(s));
      }
      expect(validateXml(await (await get(url())).text(), `${code}.xml`)).toBe('ok');
    },
  );

  it('writes the longest values the inputs allow, and the file still validates', async () => {
    await h.db.execute(
      sql.raw(
        `update bills set end_customer_first_name = repeat('J', 200), end_customer_last_name = repeat('W', 200) where bill_number = 'RE-2026-DLX-0001'`,
      ),
    );
    await h.db.execute(
      sql.raw(
        `update contracts set debit_account_nr = '123456789', cost_center_number = '${'4'.repeat(30)}' where contract_key = 'DLX-C1'`,
      ),
    );
    await h.db.execute(
      sql.raw(`update erp_values set net_ledger_account_nr = '84000000', tax_ledger_account_nr = '1776' where cpo_id = 'DLX-OP'`),
    );
    try {
      const res = await get(url());
      expect(res.status).toBe(200);
      const xml = await res.text();
      expect(xml).toContain(`<Name>${'J'.repeat(200)} ${'W'.repeat(200)}</Name>`);
      expect(xml).toContain('<AccountNr>84000000</AccountNr>');
      expect(validateXml(xml, 'longest.xml')).toBe('ok');
    } finally {
      for (const s of [...restore.restoreBills, ...restore.restoreContracts, ...restore.restoreErp]) await h.db.execute(sql.raw(s));
    }
  });

  it('has the account rules of the inputs in the XSD', () => {
    const xsd = readFileSync(XSD, 'utf8');
    const patternOf = (type: string) =>
      new RegExp(`<xs:simpleType name="${type}">\\s*<xs:restriction base="xs:string">\\s*<xs:pattern value="([^"]+)"/>`).exec(xsd)?.[1];
    expect(patternOf('LedgerAccountNr')).toBe(ERP_PATTERNS.ledgerAccount.xsd);
    expect(patternOf('DebitAccountNr')).toBe(ERP_PATTERNS.debitAccount.xsd);
    expect(patternOf('CostCenterNr')).toBe(ERP_PATTERNS.costCenter.xsd);
  });
});

describe("Stripe's bills in the ERP XML (issue 35)", () => {
  beforeAll(() => insertStripeBills(h.db));
  const stripeUrl = (pm: string) => url().replace('paymentMethod=SEPA', `paymentMethod=${pm}`);

  it.each(FX_STRIPE.bills)('writes the $pm bill $n with its gross on the clearing account, valid against the XSD', async (b) => {
    const res = await get(stripeUrl(b.pm));
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(validateXml(xml, `${b.pm}.xml`)).toBe('ok');
    expect(xml).toContain(`<PaymentMethod>${b.pm}</PaymentMethod>`);
    expect(all(xml, 'BillNumber')).toEqual([b.n]);
    // The end customer's account is named for reference; the gross is posted on the clearing account.
    expect(all(xml, 'DebitAccountNr')).toEqual([b.c.debit]);
    expect(postings(xml)).toEqual([
      ['GROSS', FX_STRIPE.clearing, 'DEBIT', b.gross],
      ['NET', FX.netLedger, 'CREDIT', b.net],
      ['VAT', FX.taxLedger, 'CREDIT', b.vat],
    ]);
    expect(all(xml, 'DebitTotal')).toEqual([b.gross]);
    expect(all(xml, 'CreditTotal')).toEqual([b.gross]);
  });

  it('keeps the SEPA file as it was: no Stripe bill in it, the gross on the debit accounts', async () => {
    const xml = await (await get(url())).text();
    expect(all(xml, 'BillNumber')).toEqual(['RE-2026-DLX-0001', 'RE-2026-DLX-0002']);
    expect(
      postings(xml)
        .filter((p) => p[0] === 'GROSS')
        .map((p) => p[1]),
    ).toEqual([FX.c1.debit, FX.c2.debit]);
  });

  it('answers ERP_SYSTEM_PARAMETERS_NOT_FOUND without a clearing account, ERP_VALUE_INVALID for one not of 4 to 8 digits', async () => {
    const set = (v: string | null) =>
      h.db.execute(sql`update erp_values set clearing_account_nr = ${v} where cpo_id = ${FX.cpoId} and payment_method = 'STRIPE_CARD'`);
    try {
      await set(null);
      const none = await h.request('GET', stripeUrl('STRIPE_CARD'), { token: tokens.partner });
      expect(none.status).toBe(404);
      expect(none.body).toMatchObject({
        errorCodeResponse: 'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
        errorDetail: { missing: 'clearingAccountNr', paymentMethod: 'STRIPE_CARD' },
      });
      await set('GT-1360');
      const bad = await h.request('GET', stripeUrl('STRIPE_CARD'), { token: tokens.partner });
      expect(bad.status).toBe(422);
      expect(bad.body).toMatchObject({
        errorCodeResponse: 'ERP_VALUE_INVALID',
        errorDetail: { invalid: 'clearingAccountNr', value: 'GT-1360' },
      });
    } finally {
      await set(FX_STRIPE.clearing);
    }
    // A SEPA value needs no clearing account.
    expect((await get(url())).status).toBe(200);
  });
});

const unescapeXml = (v: string) => v.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
function all(xml: string, tag: string) {
  return [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => unescapeXml(m[1]!));
}
/** Each posting line: type, account, side, amount. */
function postings(xml: string) {
  return [...xml.matchAll(/<PostingLine type="(\w+)">([\s\S]*?)<\/PostingLine>/g)].map((m) => [
    m[1],
    all(m[2]!, 'AccountNr')[0],
    all(m[2]!, 'Side')[0],
    all(m[2]!, 'Amount')[0],
  ]);
}
