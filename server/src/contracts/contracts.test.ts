import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import { contractDetailSchema, contractRowSchema, type CreateContractBody } from '../../../contract/contracts';
import { bills } from '../db/schema/bookings';
import { contracts, contractTariffs } from '../db/schema/contracts';
import { mailOutbox } from '../db/schema/mail';
import { operators } from '../db/schema/operators';
import { rfidTags } from '../db/schema/rfid';
import { contractBody, contractPlace, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { applyDueTariffChanges } from './tariff-history';

let h: Harness;
let tokens: Record<'admin' | 'operator' | 'partner', string>;
/** The operator account's operator, a location of it with a parking lot, and a partner's contract. */
let own: ContractPlace;
let foreignKey: string;

const listSchema = envelope(paged(contractRowSchema));
const detailSchema = envelope(contractDetailSchema);
const base = '/contract-management';

async function pdfBase64(pages = 1): Promise<string> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage().drawText(`Ladevertrag Seite ${i + 1}`);
  return Buffer.from(await doc.save()).toString('base64');
}

const body = (over: Partial<CreateContractBody> = {}) => contractBody(own, over);

const create = (b: CreateContractBody, token = tokens.operator) => h.request('POST', `${base}/create-contract`, { body: b, token });
const detail = async (key: string, token = tokens.operator) => {
  const res = await h.request('GET', `${base}/contract/id/${key}`, { token });
  expect(res.status).toBe(200);
  return detailSchema.parse(res.body).data;
};
const setStatus = (key: string, status: 'ACTIVE' | 'CREATED_UNSIGNED') =>
  h.db.update(contracts).set({ contractStatus: status }).where(eq(contracts.contractKey, key));

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    admin: (await h.login('admin')).access_token,
    operator: (await h.login('operator')).access_token,
    partner: (await h.login('partner')).access_token,
  };
  own = await contractPlace(h, tokens.operator);
  const partnerOps = await h.request('GET', '/bff/cpos?page=0&size=100', { token: tokens.partner });
  const [foreign] = await h.db
    .select({ key: contracts.contractKey })
    .from(contracts)
    .where(eq(contracts.cpoId, partnerOps.body.data.response[0].cpoId))
    .limit(1);
  foreignKey = foreign.key;
});
afterAll(() => h?.close());

describe('GET /contract-management/contracts/operator', () => {
  it("lists the caller's end customers only, filtered by name, locations and user types", async () => {
    const res = await h.request('GET', `${base}/contracts/operator?page=0&size=200`, { token: tokens.operator });
    expect(res.status).toBe(200);
    const { data } = listSchema.parse(res.body);
    const [{ n }] = await h.db
      .select({ n: sql<number>`count(*)::int` })
      .from(contracts)
      .where(eq(contracts.cpoId, own.cpoId));
    expect(data.totalNumberOfRecords).toBe(n);
    expect(data.response.map((r) => r.contractKey)).not.toContain(foreignKey);

    const someone = data.response.find((r) => r.location !== null)!;
    const byName = listSchema.parse(
      (
        await h.request('GET', `${base}/contracts/operator?name=${encodeURIComponent(someone.name.toUpperCase())}`, {
          token: tokens.operator,
        })
      ).body,
    ).data;
    expect(byName.response.map((r) => r.contractKey)).toContain(someone.contractKey);

    const locationId = someone.location!.split(':')[0];
    const atLocation = listSchema.parse(
      (
        await h.request('GET', `${base}/contracts/operator?size=200&locationIds=${locationId}&userTypes=REGULAR`, {
          token: tokens.operator,
        })
      ).body,
    ).data;
    expect(atLocation.response.length).toBeGreaterThan(0);
    expect(atLocation.response.every((r) => r.location?.startsWith(`${locationId}:`) && r.userType === 'REGULAR')).toBe(true);
  });

  it("refuses another customer's location as a filter with 404", async () => {
    const [theirs] = await h.db.select({ locationId: contracts.locationId }).from(contracts).where(eq(contracts.contractKey, foreignKey));
    const res = await h.request('GET', `${base}/contracts/operator?locationIds=${theirs.locationId ?? 'L1'}`, { token: tokens.operator });
    expect(res.status).toBe(404);
    expect(res.body.errorCodeResponse).toBe('LOCATION_NOT_FOUND');
  });
});

describe('POST /contract-management/create-contract', () => {
  it('creates a REGULAR user with billing, a SEPA mandate and a PDF; the invitation is queued; the PDF is served to the caller only', async () => {
    const b = body({
      contractInfo: { ...body().contractInfo, contractPDF: 'Vertrag Erika.pdf', contractPdfInByteArrayForm: await pdfBase64() },
      // Typed as printed: stored compact and upper case (issue 23).
      contractPaymentDetails: { ...body().contractPaymentDetails!, contractIban: 'de89 3704 0044 0532 0130 00' },
    });
    const res = await create(b);
    expect(res.status).toBe(200);
    const key = res.body.data.contractKey as string;
    expect(res.body.data.contractStatus).toBe('CREATED_UNSIGNED');
    if (!own.manual) expect(res.body.data.endCustomerId).toMatch(/^\d{3}-\d{5}-\d{3}$/);

    const d = await detail(key);
    expect(d).toMatchObject({
      userType: 'REGULAR',
      email: b.email,
      locationId: own.locationId,
      parkingLotNumbers: [own.lot],
      billingType: 'WITH_BILLING',
      paymentMethod: 'SEPA',
      contractPaymentDetails: {
        contractMandateReference: b.contractPaymentDetails!.contractMandateReference,
        contractIban: 'DE89370400440532013000',
      },
      contractInfo: {
        contractPDF: 'Vertrag Erika.pdf',
        startDate: '2026-12-01',
        endDate: null,
        fixTariff: 9.9,
        varTariff: 0.39,
        onboardingFee: 49,
      },
      erpSystemParameters: { debitAccountNr: '10001', costCenterNumber: '4000', vatId: '19' },
      pdfAvailable: true,
      contractChangeTariff: null,
    });
    expect(d.contractNumber).toMatch(/^V-\d{4}-\d{6}$/);

    const [mail] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.email));
    expect(mail.textBody).toContain(`contractKey=${key}`);
    expect(mail.textBody).toContain(d.contractNumber);

    const pdf = await h.app.request(`${base}/pdf/${key}?verificationId=${d.contractId}`, {
      headers: { authorization: `Bearer ${tokens.operator}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toContain('Vertrag Erika.pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const wrongId = await h.request('GET', `${base}/pdf/${key}?verificationId=${key}`, { token: tokens.operator });
    expect(wrongId.status).toBe(404);
    const foreign = await h.request('GET', `${base}/pdf/${key}?verificationId=${d.contractId}`, { token: tokens.partner });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCodeResponse).toBe('CONTRACT_NOT_FOUND');
  });

  it('refuses what spec 2 §4-5 refuses, writing nothing', async () => {
    const [{ n: before }] = await h.db.select({ n: sql<number>`count(*)::int` }).from(contracts);
    const cases: [CreateContractBody, number, string, string?][] = [
      [body({ locationId: undefined }), 400, 'VALIDATION_ERROR', 'locationRequired'],
      [body({ parkingLotNumbers: [] }), 400, 'VALIDATION_ERROR', 'parkingLotRequired'],
      [body({ parkingLotNumbers: ['ZZ9'] }), 409, 'UNKNOWN_PARKING_LOT', 'unknownParkingLot'],
      [body({ userType: 'GLOBAL_ADMIN', authType: 'RFID', rfidType: 'TAG', rfidTags: ['GA1'] }), 403, 'FORBIDDEN'],
      [body({ authType: 'RFID', rfidType: 'TAG' }), 400, 'VALIDATION_ERROR', 'rfidRequired'],
      [
        body({ contractInfo: { startDate: '2026-12-01', endDate: '2026-11-30', fixTariff: 1, varTariff: 1 } }),
        400,
        'VALIDATION_ERROR',
        'endBeforeStart',
      ],
      [body({ contractInfo: { startDate: '2026-12-01', fixTariff: 1.234, varTariff: 1 } }), 400, 'VALIDATION_ERROR', 'step001'],
      [body({ contractInfo: { startDate: '2026-12-01', varTariff: 1 } }), 400, 'VALIDATION_ERROR', 'required'],
      [body({ contractPaymentDetails: {} }), 400, 'VALIDATION_ERROR', 'required'],
      [body({ contractAddress: { street: 'A 1', zipCode: '1O115', city: 'Berlin' } }), 400, 'VALIDATION_ERROR', 'digitsOnly'],
      // The VAT rate: one the bills can be made at (19, 7, 0), digits only.
      [body({ erpSystemParameters: { vatId: '19%' } }), 400, 'VALIDATION_ERROR', 'vatRate'],
      [body({ erpSystemParameters: { vatId: '16' } }), 400, 'VALIDATION_ERROR', 'vatRate'],
      // 0 % is the reverse charge: only with the customer's VAT id.
      [body({ erpSystemParameters: { vatId: '0' } }), 400, 'VALIDATION_ERROR', 'zeroRateNeedsVatId'],
      // A business customer's VAT id by its country's pattern (and a German one by its check digit), and only with a company name.
      [body({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695975' }), 400, 'VALIDATION_ERROR', 'invalidEuVatId'],
      [body({ companyName: 'Flotte Nord GmbH', customerVatId: 'FR1234' }), 400, 'VALIDATION_ERROR', 'invalidEuVatId'],
      [body({ customerVatId: 'DE136695976' }), 400, 'VALIDATION_ERROR', 'companyNameFirst'],
      [body({ buyerReference: '991-01234-44' }), 400, 'VALIDATION_ERROR', 'companyNameFirst'],
      // An account number: at most 9 digits (the ERP XML's schema, DATEV's 'Konto').
      [body({ erpSystemParameters: { debitAccountNr: '1234567890' } }), 400, 'VALIDATION_ERROR', 'max9'],
      [
        body({ contractPaymentDetails: { contractMandateReference: 'M-IBAN', contractIban: 'DE89370400440532013001' } }),
        400,
        'VALIDATION_ERROR',
        'invalidIban',
      ],
      [body({ cpoId: 'CPO9999' }), 404, 'OPERATOR_NOT_FOUND'],
    ];
    for (const [b, status, code, message] of cases) {
      const res = await create(b);
      expect({ status: res.status, code: res.body.errorCodeResponse }, JSON.stringify(res.body)).toEqual({ status, code });
      if (message) expect(res.body.issues.map((i: { message: string }) => i.message)).toContain(message);
    }
    const [{ n: after }] = await h.db.select({ n: sql<number>`count(*)::int` }).from(contracts);
    expect(after).toBe(before);
  });

  it('checks the PDF by its bytes: a renamed PNG is refused, and so is one above 3 MB', async () => {
    const png = new PNG({ width: 2, height: 2 });
    const renamed = PNG.sync.write(png).toString('base64');
    const asPng = await create(
      body({ contractInfo: { ...body().contractInfo, contractPDF: 'vertrag.pdf', contractPdfInByteArrayForm: renamed } }),
    );
    expect(asPng.status).toBe(400);
    expect(asPng.body.errorCodeResponse).toBe('UNSUPPORTED_FILE_TYPE');

    const doc = await PDFDocument.create();
    doc.addPage().drawText('gross');
    doc.setSubject('x'.repeat(Math.ceil(3.1 * 1024 * 1024)));
    const big = Buffer.from(await doc.save({ useObjectStreams: false }));
    expect(big.length).toBeGreaterThan(3 * 1024 * 1024);
    const tooBig = await create(body({ contractInfo: { ...body().contractInfo, contractPdfInByteArrayForm: big.toString('base64') } }));
    expect(tooBig.status).toBe(413);
  });

  it('names the owner of an e-mail in use, and an end customer id in use', async () => {
    const [taken] = await h.db
      .select({ email: contracts.email, endCustomerId: contracts.endCustomerId })
      .from(contracts)
      .where(and(sql`${contracts.contractStatus} = 'ACTIVE'`, eq(contracts.cpoId, own.cpoId)))
      .limit(1);
    const res = await create(body({ email: taken.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ errorCodeResponse: 'DUPLICATED_EMAIL', errorDetail: { endCustomerId: taken.endCustomerId } });

    // An operator with manual ids (spec 2 §5): the id is required and must be free.
    const [manualOp] = await h.db
      .select({ cpoId: operators.cpoId })
      .from(operators)
      .where(eq(operators.createManualEndCustomerId, true))
      .limit(1);
    const adminBody = {
      ...body(),
      cpoId: manualOp.cpoId,
      userType: 'LOCAL_ADMIN' as const,
      authType: 'RFID' as const,
      rfidType: 'TAG' as const,
      rfidTags: ['M-MANUAL-1'],
    };
    const noId = await create({ ...adminBody, endCustomerId: undefined }, tokens.admin);
    expect(noId.status).toBe(400);
    expect(noId.body.issues[0]).toMatchObject({ path: 'endCustomerId', message: 'required' });
    const dup = await create({ ...adminBody, endCustomerId: taken.endCustomerId.replace(/-/g, '') }, tokens.admin);
    expect(dup.status).toBe(200);
    const again = await create(
      {
        ...body(),
        cpoId: manualOp.cpoId,
        userType: 'LOCAL_ADMIN',
        authType: 'RFID',
        rfidType: 'TAG',
        rfidTags: ['M-MANUAL-2'],
        endCustomerId: dup.body.data.endCustomerId,
      },
      tokens.admin,
    );
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      errorCodeResponse: 'DUPLICATED_END_CUSTOMER_ID',
      errorDetail: { endCustomerId: dup.body.data.endCustomerId },
    });
  });

  it('gives two concurrent creates with one e-mail one contract and one clear error', async () => {
    const email = `race.${Date.now()}@example.de`;
    const answers = await Promise.all([create(body({ email })), create(body({ email }))]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.errorCodeResponse).toBe('DUPLICATED_EMAIL');
    const rows = await h.db
      .select()
      .from(contracts)
      .where(sql`lower(${contracts.email}) = ${email}`);
    expect(rows).toHaveLength(1);
  });

  it('hands out RFID cards: a stock card by tag, a new tag as a new card, a card of another end customer refused with the table', async () => {
    const [stock] = await h.db.select().from(rfidTags).where(isNull(rfidTags.contractKey)).limit(1);
    const fresh = `NEW${Date.now()}`;
    const res = await create(
      body({
        userType: 'LOCAL_ADMIN',
        locationId: undefined,
        parkingLotNumbers: [],
        authType: 'RFID',
        rfidType: 'TAG',
        rfidTags: [` ${stock.rfidTag} `, fresh],
      }),
    );
    expect(res.status).toBe(200);
    const d = await detail(res.body.data.contractKey);
    expect(d.rfidTags.sort()).toEqual([stock.rfidTag, fresh].sort());
    expect(d.locationId).toBeNull();
    expect(d.authType).toBe('RFID');

    const taken = await create(body({ authType: 'APP_AND_RFID', rfidType: 'TAG', rfidTags: [fresh] }));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      errorCodeResponse: 'ERR_RFID_ID_EXISTS',
      errorDetail: [{ field: 'rfidTag', value: fresh, endCustomerId: d.endCustomerId }],
    });
    const unknownSerial = await create(body({ authType: 'RFID', rfidType: 'SN', rfidSerialId: ['SN-DOES-NOT-EXIST'] }));
    expect(unknownSerial.status).toBe(400);
    expect(unknownSerial.body.errorCodeResponse).toBe('ERR_RFID_SERIAL_NOT_EXISTS');
  });
});

describe("conflicts with another tenant's data", () => {
  it('say only that the e-mail or card is taken, without the end customer id the caller does not see', async () => {
    const [theirs] = await h.db
      .select({ key: contracts.contractKey, email: contracts.email, endCustomerId: contracts.endCustomerId })
      .from(contracts)
      .where(
        and(
          sql`${contracts.contractStatus} not in ('EXPIRED', 'UNSIGNED_EXPIRED')`,
          sql`${contracts.cpoId} = (select cpo_id from contracts where contract_key = ${foreignKey})`,
        ),
      )
      .limit(1);
    const email = await create(body({ email: theirs.email }));
    expect(email.status).toBe(409);
    expect(email.body).toMatchObject({ errorCodeResponse: 'DUPLICATED_EMAIL', errorDetail: { endCustomerId: null } });
    expect(JSON.stringify(email.body)).not.toContain(theirs.endCustomerId);

    const tag = `FOREIGN${Date.now()}`;
    await h.db.insert(rfidTags).values({ rfidTag: tag, serialId: `SN-${tag}`, contractKey: theirs.key });
    const card = await create(body({ authType: 'APP_AND_RFID', rfidType: 'TAG', rfidTags: [tag] }));
    expect(card.status).toBe(409);
    expect(card.body).toMatchObject({
      errorCodeResponse: 'ERR_RFID_ID_EXISTS',
      errorDetail: [{ field: 'rfidTag', value: tag, endCustomerId: null }],
    });
    expect(JSON.stringify(card.body)).not.toContain(theirs.endCustomerId);

    // An admin sees every tenant: the holder is named.
    const forAdmin = await create(body({ email: theirs.email }), tokens.admin);
    expect(forAdmin.body).toMatchObject({ errorCodeResponse: 'DUPLICATED_EMAIL', errorDetail: { endCustomerId: theirs.endCustomerId } });
  });

  it('refuses the end customer id check on create without the operator', async () => {
    const res = await h.request('POST', `${base}/end-customer-id/X1/validate/on-create`, { token: tokens.operator });
    expect(res.status).toBe(400);
    expect(res.body.issues).toContainEqual({ path: 'cpoId', message: 'required' });
  });
});

describe('PUT /contract-management/update-contract and /change-contract-tarrif', () => {
  it('refuses a SEPA direct debit while the operator has no creditor id (422, nothing written); another method is taken', async () => {
    const cpoId = body().cpoId;
    const [op] = await h.db.select({ creditorId: operators.creditorId }).from(operators).where(eq(operators.cpoId, cpoId));
    await h.db.update(operators).set({ creditorId: null }).where(eq(operators.cpoId, cpoId));
    try {
      const sepa = body({ email: 'ohne.glaeubiger@example.de', paymentMethod: 'SEPA' });
      const refused = await create(sepa);
      expect(refused.status).toBe(422);
      expect(refused.body.errorCodeResponse).toBe('SEPA_CREDITOR_ID_REQUIRED');
      expect(refused.body.issues).toEqual([{ path: 'paymentMethod', message: 'sepaNeedsCreditorId' }]);
      expect(await h.db.select().from(contracts).where(eq(contracts.email, sepa.email))).toHaveLength(0);
      const transfer = await create({ ...sepa, paymentMethod: 'BANK_TRANSFER' });
      expect(transfer.status).toBe(200);
      // An edit to SEPA is refused too; the contract stays as it was.
      const key = transfer.body.data.contractKey as string;
      const d = await detail(key);
      const edit = await h.request('PUT', `${base}/update-contract`, {
        body: { ...sepa, contractKey: key, version: d.version },
        token: tokens.operator,
      });
      expect(edit.status).toBe(422);
      expect((await detail(key)).paymentMethod).toBe('BANK_TRANSFER');
    } finally {
      await h.db.update(operators).set({ creditorId: op.creditorId }).where(eq(operators.cpoId, cpoId));
    }
  });

  it('edits with the version seen, locks what an active contract locks, and refuses a stale version with the contract as it is', async () => {
    const created = await create(body());
    const key = created.body.data.contractKey as string;
    const d = await detail(key);
    const edit = { ...body(), email: d.email, contractKey: key, version: d.version, firstName: 'Erna' };
    const res = await h.request('PUT', `${base}/update-contract`, { body: edit, token: tokens.operator });
    expect(res.status).toBe(200);
    expect((await detail(key)).firstName).toBe('Erna');

    const stale = await h.request('PUT', `${base}/update-contract`, { body: { ...edit, firstName: 'Old' }, token: tokens.operator });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      errorCodeResponse: 'CONFLICT',
      errorDetail: { currentVersion: d.version + 1, current: { firstName: 'Erna' } },
    });

    await setStatus(key, 'ACTIVE');
    const now = await detail(key);
    const locked = await h.request('PUT', `${base}/update-contract`, {
      body: {
        ...edit,
        version: now.version,
        billingType: 'NO_BILLING',
        contractInfo: { startDate: '2027-01-01', fixTariff: 99, varTariff: 0.99 },
      },
      token: tokens.operator,
    });
    expect(locked.status).toBe(200);
    const after = await detail(key);
    expect(after.billingType).toBe('WITH_BILLING');
    expect(after.contractInfo).toMatchObject({ startDate: '2026-12-01', fixTariff: 9.9, varTariff: 0.39, onboardingFee: 49 });
  });

  it('keeps a business customer (company, VAT id, buyer reference) and the VAT rate through create, detail and edit', async () => {
    const created = await create(
      body({
        companyName: ' Flotte Nord GmbH ',
        customerVatId: 'de 136 695 976',
        buyerReference: '04011000-1234512345-06',
        erpSystemParameters: { debitAccountNr: '10001', vatId: '07' },
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const key = created.body.data.contractKey as string;
    const d = await detail(key);
    expect(d).toMatchObject({
      companyName: 'Flotte Nord GmbH',
      customerVatId: 'DE136695976',
      buyerReference: '04011000-1234512345-06',
      erpSystemParameters: { vatId: '7' },
    });
    const edit = { ...body(), email: d.email, contractKey: key, version: d.version };
    const changed = await h.request('PUT', `${base}/update-contract`, {
      body: { ...edit, companyName: 'Stadt Musterstadt', customerVatId: 'ATU13585627', erpSystemParameters: { vatId: '0' } },
      token: tokens.operator,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(await detail(key)).toMatchObject({
      companyName: 'Stadt Musterstadt',
      customerVatId: 'ATU13585627',
      buyerReference: null,
      erpSystemParameters: { vatId: '0' },
    });
    const refused = await h.request('PUT', `${base}/update-contract`, {
      body: { ...edit, version: d.version + 1, customerVatId: 'DE136695976', erpSystemParameters: { vatId: '5' } },
      token: tokens.operator,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    expect(refused.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'customerVatId', message: 'companyNameFirst' }),
        expect.objectContaining({ path: 'erpSystemParameters.vatId', message: 'vatRate' }),
      ]),
    );
    // A private customer again: no company, no VAT id.
    const privateAgain = await h.request('PUT', `${base}/update-contract`, {
      body: { ...edit, version: d.version + 1 },
      token: tokens.operator,
    });
    expect(privateAgain.status).toBe(200);
    expect(await detail(key)).toMatchObject({
      companyName: null,
      customerVatId: null,
      buyerReference: null,
      erpSystemParameters: { vatId: '19' },
    });
  });

  it('changes the tariff from the 1st of a month once, and terminates an active contract once', async () => {
    const created = await create(body());
    const key = created.body.data.contractKey as string;
    const tariff = (over: object = {}) => {
      const next = new Date();
      next.setUTCDate(1);
      next.setUTCMonth(next.getUTCMonth() + 1);
      const first = next.toISOString().slice(0, 10);
      return {
        contractKey: key,
        fixTariff: 12.5,
        varTariff: 0.45,
        newTariffDate: first,
        newTariffCancellationDate: `${next.getUTCFullYear() + 1}${first.slice(4)}`,
        ...over,
      };
    };
    const notActive = await h.request('PUT', `${base}/change-contract-tarrif`, { body: tariff(), token: tokens.operator });
    expect(notActive.status).toBe(409);
    expect(notActive.body.errorCodeResponse).toBe('CONTRACT_STATUS_DATA_INCONSISTENCY');
    await setStatus(key, 'ACTIVE');
    const midMonth = await h.request('PUT', `${base}/change-contract-tarrif`, {
      body: tariff({ newTariffDate: tariff().newTariffDate.replace(/01$/, '15') }),
      token: tokens.operator,
    });
    expect(midMonth.status).toBe(400);
    expect(midMonth.body.issues[0].message).toBe('firstOfMonth');
    const past = await h.request('PUT', `${base}/change-contract-tarrif`, {
      body: tariff({ newTariffDate: '2020-01-01' }),
      token: tokens.operator,
    });
    expect(past.body.issues[0].message).toBe('notInPast');
    const okRes = await h.request('PUT', `${base}/change-contract-tarrif`, { body: tariff(), token: tokens.operator });
    expect(okRes.status).toBe(200);
    expect((await detail(key)).contractChangeTariff).toMatchObject({
      fixTariff: 12.5,
      varTariff: 0.45,
      newTariffDate: tariff().newTariffDate,
    });
    const second = await h.request('PUT', `${base}/change-contract-tarrif`, { body: tariff(), token: tokens.operator });
    expect(second.status).toBe(409);
    // Its day comes: the contract has the new tariff, nothing is pending any more, the version moved on.
    const pendingVersion = (await detail(key)).version;
    expect(await applyDueTariffChanges(h.db, tariff().newTariffDate)).toBeGreaterThanOrEqual(1);
    expect(await applyDueTariffChanges(h.db, tariff().newTariffDate)).toBe(0);
    const applied = await detail(key);
    expect(applied).toMatchObject({
      contractChangeTariff: null,
      contractInfo: { fixTariff: 12.5, varTariff: 0.45 },
      version: pendingVersion + 1,
    });

    const terminate = { contractKey: key, contractStatus: 'EXPIRED' };
    const first = await h.request('PUT', `${base}/update-contract`, { body: terminate, token: tokens.operator });
    expect(first.status).toBe(200);
    expect(first.body.data.contractStatus).toBe('EXPIRED');
    const twice = await h.request('PUT', `${base}/update-contract`, { body: terminate, token: tokens.operator });
    expect(twice.status).toBe(409);
    expect(twice.body.errorCodeResponse).toBe('CONTRACT_STATUS_DATA_INCONSISTENCY');
    // An ended contract frees its e-mail for a new one.
    const reuse = await create(body({ email: (await detail(key)).email }));
    expect(reuse.status).toBe(200);
  });
});

describe('terminating a contract (issue 23)', () => {
  it('drops its pending tariff change: the detail no longer shows it and it never applies', async () => {
    const key = (await create(body())).body.data.contractKey as string;
    await setStatus(key, 'ACTIVE');
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 2);
    const first = next.toISOString().slice(0, 10);
    const change = await h.request('PUT', `${base}/change-contract-tarrif`, {
      body: {
        contractKey: key,
        fixTariff: 20,
        varTariff: 0.5,
        newTariffDate: first,
        newTariffCancellationDate: `${next.getUTCFullYear() + 1}${first.slice(4)}`,
      },
      token: tokens.operator,
    });
    expect(change.status).toBe(200);
    expect((await detail(key)).contractChangeTariff).not.toBeNull();
    const ended = await h.request('PUT', `${base}/update-contract`, {
      body: { contractKey: key, contractStatus: 'EXPIRED' },
      token: tokens.operator,
    });
    expect(ended.status).toBe(200);
    const after = await detail(key);
    expect(after.contractChangeTariff).toBeNull();
    await applyDueTariffChanges(h.db, first);
    expect((await detail(key)).contractInfo.fixTariff).toBe(after.contractInfo.fixTariff);
  });
});

describe('impossible dates', () => {
  it('refuses 2026-02-30 and 2026-13-01 with 400 and the field on create, edit and tariff change', async () => {
    const created = await create(body());
    expect(created.status).toBe(200);
    const key = created.body.data.contractKey as string;
    const d = await detail(key);
    const fieldOf = (res: { body: { issues?: { path: string; message: string }[] } }) =>
      res.body.issues?.filter((i) => i.message === 'yyyy-MM-dd').map((i) => i.path);

    const bad = await create(body({ contractInfo: { startDate: '2026-02-30', endDate: '2026-13-01', fixTariff: 1, varTariff: 0.1 } }));
    expect(bad.status).toBe(400);
    expect(fieldOf(bad)).toEqual(['contractInfo.startDate', 'contractInfo.endDate']);

    const edit = { ...body(), email: d.email, contractKey: key, version: d.version };
    const badEdit = await h.request('PUT', `${base}/update-contract`, {
      body: { ...edit, contractInfo: { startDate: '2026-12-01', endDate: '2026-02-30' } },
      token: tokens.operator,
    });
    expect(badEdit.status).toBe(400);
    expect(fieldOf(badEdit)).toEqual(['contractInfo.endDate']);

    await setStatus(key, 'ACTIVE');
    const tariff = { contractKey: key, fixTariff: 1, varTariff: 0.1, newTariffDate: '2026-13-01', newTariffCancellationDate: '2027-02-30' };
    const badTariff = await h.request('PUT', `${base}/change-contract-tarrif`, { body: tariff, token: tokens.operator });
    expect(badTariff.status).toBe(400);
    expect(fieldOf(badTariff)).toEqual(['newTariffDate', 'newTariffCancellationDate']);
    // Nothing written: the contract is as it was.
    expect((await detail(key)).contractChangeTariff).toBeNull();
  });
});

describe('RFID serials in the edit flow', () => {
  it('hands out a stock card by serial, and refuses a serial another end customer holds with DB_CLIENT_ERROR and the table', async () => {
    const stock = await h.db.select().from(rfidTags).where(isNull(rfidTags.contractKey)).limit(2);
    const holder = await create(body({ authType: 'APP_AND_RFID', rfidType: 'SN', rfidSerialId: [stock[1].serialId] }));
    expect(holder.status).toBe(200);
    const holderDetail = await detail(holder.body.data.contractKey);
    expect(holderDetail.rfidTags).toEqual([stock[1].rfidTag]);

    const created = await create(body());
    const d = await detail(created.body.data.contractKey);
    const edit = (serials: string[]) =>
      h.request('PUT', `${base}/update-contract`, {
        body: { ...body(), email: d.email, contractKey: d.contractKey, authType: 'APP_AND_RFID', rfidType: 'SN', rfidSerialId: serials },
        token: tokens.operator,
      });
    const taken = await edit([stock[0].serialId, stock[1].serialId]);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({
      errorCodeResponse: 'DB_CLIENT_ERROR',
      errorDetail: [{ field: 'serialNumber', value: stock[1].serialId, endCustomerId: holderDetail.endCustomerId }],
    });
    expect((await detail(d.contractKey)).rfidSerialId).toEqual([]);
    const free = await edit([stock[0].serialId]);
    expect(free.status).toBe(200);
    expect((await detail(d.contractKey)).rfidSerialId).toEqual([stock[0].serialId]);
  });
});

describe('POST /contract-management/send-invitation-email/{contractKey}', () => {
  it('mails the invitation again while the contract waits for its signature, and only then', async () => {
    const created = await create(body());
    const key = created.body.data.contractKey as string;
    const email = (await detail(key)).email;
    const mails = async () => (await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).length;
    expect(await mails()).toBe(1);
    const res = await h.request('POST', `${base}/send-invitation-email/${key}`, {
      token: tokens.operator,
      headers: { 'idempotency-key': `inv-${key}` },
    });
    expect(res.status).toBe(200);
    // The same request again (a lost answer): answered from the record, not mailed twice.
    const repeat = await h.request('POST', `${base}/send-invitation-email/${key}`, {
      token: tokens.operator,
      headers: { 'idempotency-key': `inv-${key}` },
    });
    expect(repeat.status).toBe(200);
    expect(await mails()).toBe(2);
    expect((await h.request('POST', `${base}/send-invitation-email/${key}`, { token: tokens.partner })).status).toBe(404);
    await setStatus(key, 'ACTIVE');
    const active = await h.request('POST', `${base}/send-invitation-email/${key}`, { token: tokens.operator });
    expect(active.status).toBe(409);
    expect(await mails()).toBe(2);
  });
});

describe('end customer id check, delete', () => {
  it('answers whether an id is free, the edited contract not counting', async () => {
    const [c] = await h.db
      .select({ key: contracts.contractKey, id: contracts.endCustomerId })
      .from(contracts)
      .where(eq(contracts.cpoId, own.cpoId))
      .limit(1);
    const check = async (path: string) => (await h.request('POST', `${base}${path}`, { token: tokens.operator })).body.data;
    expect(await check(`/end-customer-id/${encodeURIComponent(c.id)}/validate/on-create?cpoId=${own.cpoId}`)).toBe(false);
    expect(await check(`/end-customer-id/FREE${Date.now()}/validate/on-create?cpoId=${own.cpoId}`)).toBe(true);
    expect(await check(`/end-customer-id/${encodeURIComponent(c.id)}/validate/on-update/${c.key}`)).toBe(true);
    const foreign = await h.request('POST', `${base}/end-customer-id/X1/validate/on-update/${foreignKey}`, { token: tokens.operator });
    expect(foreign.status).toBe(404);
  });

  it('lets admins delete a contract without bills; one with bills stays', async () => {
    const created = await create(body());
    const key = created.body.data.contractKey as string;
    const byOperator = await h.request('DELETE', `${base}/delete-contract/${key}`, { token: tokens.operator });
    expect(byOperator.status).toBe(403);
    const res = await h.request('DELETE', `${base}/delete-contract/${key}`, { token: tokens.admin });
    expect(res.status).toBe(200);
    expect((await h.request('GET', `${base}/contract/id/${key}`, { token: tokens.operator })).status).toBe(404);

    const [billed] = await h.db.select({ key: bills.contractKey }).from(bills).limit(1);
    const kept = await h.request('DELETE', `${base}/delete-contract/${billed.key}`, { token: tokens.admin });
    expect(kept.status).toBe(409);
  });
});

describe('tariff history (issue 24)', () => {
  const history = (key: string) =>
    h.db
      .select({
        from: contractTariffs.validFrom,
        fix: contractTariffs.fixTariff,
        perKwh: contractTariffs.varTariff,
        onboarding: contractTariffs.onboardingFee,
        perRequest: contractTariffs.fixTariffPerChargingRequest,
      })
      .from(contractTariffs)
      .where(eq(contractTariffs.contractKey, key))
      .orderBy(asc(contractTariffs.validFrom));

  it('starts with the tariff at the start date, follows edits before ACTIVE, and adds each applied change at its date', async () => {
    const key = (await create(body())).body.data.contractKey as string;
    expect(await history(key)).toEqual([{ from: '2026-12-01', fix: '9.90', perKwh: '0.3900', onboarding: '49.00', perRequest: '0.00' }]);

    // Not yet ACTIVE: the edit replaces the start tariff, also its date.
    const d = await detail(key);
    const edited = await h.request('PUT', `${base}/update-contract`, {
      body: {
        ...body(),
        email: d.email,
        contractKey: key,
        version: d.version,
        contractInfo: { startDate: '2026-11-01', fixTariff: 11, varTariff: 0.41, onboardingFee: 0, fixTariffPerChargingRequest: 0.25 },
      },
      token: tokens.operator,
    });
    expect(edited.status).toBe(200);
    expect(await history(key)).toEqual([{ from: '2026-11-01', fix: '11.00', perKwh: '0.4100', onboarding: '0.00', perRequest: '0.25' }]);

    // ACTIVE: an edit leaves the tariffs and their history alone; a change enters at its day.
    await setStatus(key, 'ACTIVE');
    const active = await detail(key);
    const again = await h.request('PUT', `${base}/update-contract`, {
      body: {
        ...body(),
        email: active.email,
        contractKey: key,
        version: active.version,
        contractInfo: { startDate: '2026-11-01', fixTariff: 99, varTariff: 0.99 },
      },
      token: tokens.operator,
    });
    expect(again.status).toBe(200);
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 3);
    const changeDay = next.toISOString().slice(0, 10);
    const change = await h.request('PUT', `${base}/change-contract-tarrif`, {
      body: { contractKey: key, fixTariff: 12.5, varTariff: 0.45, newTariffDate: changeDay, newTariffCancellationDate: '2035-01-01' },
      token: tokens.operator,
    });
    expect(change.status).toBe(200);
    expect(await history(key)).toHaveLength(1);
    await applyDueTariffChanges(h.db, changeDay);
    expect(await history(key)).toEqual([
      { from: '2026-11-01', fix: '11.00', perKwh: '0.4100', onboarding: '0.00', perRequest: '0.25' },
      { from: changeDay, fix: '12.50', perKwh: '0.4500', onboarding: '0.00', perRequest: '0.00' },
    ]);
  });

  it('keeps no history of a deleted contract', async () => {
    const key = (await create(body())).body.data.contractKey as string;
    expect(await history(key)).toHaveLength(1);
    const res = await h.request('DELETE', `${base}/delete-contract/${key}`, { token: tokens.admin });
    expect(res.status).toBe(200);
    expect(await history(key)).toHaveLength(0);
  });
});
