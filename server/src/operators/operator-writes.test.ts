import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import { operatorDetailSchema, operatorListRowSchema, type OperatorDetail } from '../../../contract/operators';
import {
  createOperatorAnswerSchema,
  erpWriteAnswerSchema,
  operatorConflictDetailSchema,
  operatorWriteAnswerSchema,
  type CreateOperatorBody,
} from '../../../contract/operator-writes';
import { dashboardUsers } from '../db/schema/auth';
import { customers } from '../db/schema/customers';
import { erpValues, operators } from '../db/schema/operators';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';

type Role = 'admin' | 'operator' | 'partner';

let h: Harness;
const tokens = {} as Record<Role, string>;
const customerOf = {} as Record<Role, string>;
/** Operators in each tenant's scope at the start. */
const scopeOf = {} as Record<Exclude<Role, 'admin'>, string[]>;

const listSchema = envelope(paged(operatorListRowSchema));
const listIds = async (token: string) => {
  const res = await h.request('GET', '/bff/cpos?page=0&size=10000', { token });
  expect(res.status).toBe(200);
  return listSchema.parse(res.body).data.response.map((r) => r.cpoId);
};
const detail = async (cpoId: string, token = tokens.admin): Promise<OperatorDetail> => {
  const res = await h.request('GET', `/bff/cpos/${cpoId}/operator-details`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return operatorDetailSchema.parse(res.body.data);
};
const operatorCount = async () => (await h.db.select({ n: count() }).from(operators))[0].n;
const erpCount = async () => (await h.db.select({ n: count() }).from(erpValues))[0].n;

beforeAll(async () => {
  h = await createHarness();
  for (const role of ['admin', 'operator', 'partner'] as const) {
    tokens[role] = (await h.login(role)).access_token;
    const [u] = await h.db
      .select({ customerId: dashboardUsers.customerId })
      .from(dashboardUsers)
      .where(eq(dashboardUsers.email, demoAccounts[role].email));
    customerOf[role] = u.customerId;
  }
  scopeOf.operator = await listIds(tokens.operator);
  scopeOf.partner = await listIds(tokens.partner);
});
afterAll(() => h?.close());

// ---------------------------------------------------------------------------------------------
// Valid values (checksums verified by hand: the Bundesbank's sample creditor id, a textbook IBAN)
// ---------------------------------------------------------------------------------------------

const IBAN = 'DE89370400440532013000';
const BIC = 'COBADEFFXXX';
const CREDITOR_ID = 'DE98ZZZ09999999999';

const body = (over: Partial<CreateOperatorBody> = {}): CreateOperatorBody => ({
  cpoName: 'Neubetreiber GmbH',
  cpoAddress: { street: 'Hafenstraße 7', zipCode: '20457', city: 'Hamburg' },
  contactPersonDetails: {
    contactPersonName: 'Nina Neumann',
    contactPersonPosition: 'Buchhaltung',
    contactPersonPhone: '040123456',
    contactPersonEmail: 'nina.neumann@neubetreiber.example',
  },
  cpoPaymentDetails: {
    cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'],
    cpoIban: IBAN,
    cpoBankName: 'Commerzbank',
    cpoBic: BIC,
    creditorId: CREDITOR_ID,
    moneyCollectionGapInDays: 14,
  },
  billingTemplateHeader: { lineOne: 'Neubetreiber GmbH', lineTwo: 'Hafenstraße 7', lineThree: '20457 Hamburg' },
  billingTemplateFooter: { lineOne: 'Amtsgericht Hamburg HRB 4711' },
  taxNumber: '02/123/45678',
  ...over,
});
const payment = (over: Record<string, unknown>) => ({ ...body().cpoPaymentDetails, ...over }) as CreateOperatorBody['cpoPaymentDetails'];

const create = (b: unknown, token = tokens.partner, headers?: Record<string, string>) =>
  h.request('POST', '/bff/cpos/create-operator', { token, body: b, headers });

const issuesOf = (res: { body: { issues?: { path: string; message: string }[] } }) =>
  (res.body.issues ?? []).map((i) => `${i.path}:${i.message}`).sort();

// ---------------------------------------------------------------------------------------------

describe('POST /bff/cpos/create-operator', () => {
  it('creates an operator of the partner’s customer, in its scope at once, and in cpo_id after a token refresh', async () => {
    const login = await h.login('partner');
    const res = await create(body({ createManualEndCustomerId: true }), login.access_token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const created = createOperatorAnswerSchema.parse(res.body.data);
    expect(created.cpoId).toMatch(/^CPO\d+$/);
    expect(created.cpoName).toBe('Neubetreiber GmbH');
    expect(res.headers.get('etag')).toBe(`"v${created.version}"`);

    // The scope is read per request: the same token lists and opens it without signing in again.
    expect(await listIds(login.access_token)).toContain(created.cpoId);
    const d = await detail(created.cpoId, login.access_token);
    expect(d).toMatchObject({
      cpoName: 'Neubetreiber GmbH',
      cpoAddress: { street: 'Hafenstraße 7', careOf: null, zipCode: '20457', city: 'Hamburg', countryCode: 'DE' },
      customerId: customerOf.partner,
      customerType: 'Partner',
      createManualEndCustomerId: true,
      contactPersonDetails: { contactPersonName: 'Nina Neumann', contactPersonPhone: '040123456' },
      billingType: 'SEPA',
      isChargingHistoryIncluded: true,
      cpoPaymentDetails: {
        cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'],
        cpoIban: IBAN,
        cpoBankName: 'Commerzbank',
        cpoBic: BIC,
        creditorId: CREDITOR_ID,
        moneyCollectionGapInDays: 14,
      },
      billingTemplateHeader: { lineOne: 'Neubetreiber GmbH', lineTwo: 'Hafenstraße 7', lineThree: '20457 Hamburg', lineFour: null },
      billingTemplateFooter: { lineOne: 'Amtsgericht Hamburg HRB 4711', lineTwo: null, lineThree: null, lineFour: null },
      erpValues: [],
    });

    // Spec 1 §4: the client refreshes its tokens after creating; the new pair names the operator.
    const refreshed = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: login.access_token, currentRefreshToken: login.refresh_token, origin: 'dashboard' },
    });
    expect(refreshed.status).toBe(200);
    const claims = JSON.parse(Buffer.from(refreshed.body.data.access_token.split('.')[1], 'base64url').toString());
    expect(claims.cpo_id).toContain(created.cpoId);

    // Nobody else's: the operator account does not see it, the admin does.
    expect((await h.request('GET', `/bff/cpos/${created.cpoId}/operator-details`, { token: tokens.operator })).status).toBe(404);
    expect(await listIds(tokens.admin)).toContain(created.cpoId);
  });

  it('hands out ids one after another', async () => {
    const a = createOperatorAnswerSchema.parse((await create(body({ cpoName: 'Erster' }))).body.data);
    const b = createOperatorAnswerSchema.parse((await create(body({ cpoName: 'Zweiter' }))).body.data);
    expect(Number(b.cpoId.slice(3))).toBe(Number(a.cpoId.slice(3)) + 1);
  });

  it('lets an admin choose the customer, which must exist and is required', async () => {
    const [target] = await h.db.select().from(customers).where(eq(customers.customerId, customerOf.operator));
    const res = await create(body({ customerId: target.customerId }), tokens.admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = await detail(res.body.data.cpoId);
    expect(d.customerId).toBe(target.customerId);
    expect(d.customerType).toBe(target.customerType);

    const before = await operatorCount();
    const missing = await create(body(), tokens.admin);
    expect(missing.status).toBe(400);
    expect(issuesOf(missing)).toEqual(['customerId:required']);
    const unknown = await create(body({ customerId: 'K99999' }), tokens.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCodeResponse: 'CUSTOMER_NOT_FOUND', errorDetail: { customerId: 'K99999' } });
    expect(await operatorCount()).toBe(before);
  });

  it('refuses another customer (404, like one that does not exist) and Operator-type accounts (403)', async () => {
    const before = await operatorCount();
    const foreign = await create(body({ customerId: customerOf.operator }), tokens.partner);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ errorCodeResponse: 'CUSTOMER_NOT_FOUND', errorDetail: { customerId: customerOf.operator } });
    const nowhere = await create(body({ customerId: 'K99999' }), tokens.partner);
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.errorCodeResponse).toBe('CUSTOMER_NOT_FOUND');

    // Its own customer, sent or not: the Operator account may not create (spec 1 §6).
    for (const b of [body(), body({ customerId: customerOf.operator })]) {
      const res = await create(b, tokens.operator);
      expect(res.status).toBe(403);
      expect(res.body.errorCodeResponse).toBe('FORBIDDEN');
    }
    // The partner may name its own customer.
    expect((await create(body({ customerId: customerOf.partner }), tokens.partner)).status).toBe(200);
    expect(await operatorCount()).toBe(before + 1);
    expect((await create(body())).status).toBe(200);
    expect((await h.request('POST', '/bff/cpos/create-operator', { body: body() })).status).toBe(401);
  });

  // Every rule of spec 1 §5 and spec 3 §5: the refused cases with the code of each field.
  const refused: [string, () => unknown, string[]][] = [
    [
      'name, street, zip code and city required',
      () => body({ cpoName: ' ', cpoAddress: { street: '', zipCode: '', city: '' } }),
      ['cpoAddress.city:required', 'cpoAddress.street:required', 'cpoAddress.zipCode:required', 'cpoName:required'],
    ],
    ['a missing address', () => ({ ...body(), cpoAddress: undefined }), ['cpoAddress:required']],
    [
      'zip code numeric',
      () => body({ cpoAddress: { street: 'A 1', zipCode: '2045a', city: 'Hamburg' } }),
      ['cpoAddress.zipCode:digitsOnly'],
    ],
    [
      'contact name, position, phone and e-mail required',
      () =>
        body({
          contactPersonDetails: { contactPersonName: '', contactPersonPosition: '', contactPersonPhone: '', contactPersonEmail: '' },
        }),
      [
        'contactPersonDetails.contactPersonEmail:required',
        'contactPersonDetails.contactPersonName:required',
        'contactPersonDetails.contactPersonPhone:required',
        'contactPersonDetails.contactPersonPosition:required',
      ],
    ],
    [
      'phone numeric, e-mail pattern',
      () =>
        body({
          contactPersonDetails: { ...body().contactPersonDetails, contactPersonPhone: '040 123-456', contactPersonEmail: 'nina@' },
        }),
      ['contactPersonDetails.contactPersonEmail:email', 'contactPersonDetails.contactPersonPhone:digitsOnly'],
    ],
    ['with billing info, the payment details are required', () => body({ cpoPaymentDetails: undefined }), ['cpoPaymentDetails:required']],
    [
      'at least one payment mode',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: [] }) }),
      ['cpoPaymentDetails.cpoPaymentPreference:billingRequired'],
    ],
    [
      'no payment mode at all',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: undefined }) }),
      ['cpoPaymentDetails.cpoPaymentPreference:billingRequired'],
    ],
    [
      'an unknown payment mode',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: ['PAYPAL'] }) }),
      ['cpoPaymentDetails.cpoPaymentPreference.0:Invalid option: expected one of "SEPA"|"BANK_TRANSFER"'],
    ],
    [
      'SEPA requires the creditor id',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: ['SEPA'], creditorId: '' }) }),
      ['cpoPaymentDetails.creditorId:required'],
    ],
    [
      'a creditor id with a wrong checksum',
      () => body({ cpoPaymentDetails: payment({ creditorId: 'DE97ZZZ09999999999' }) }),
      ['cpoPaymentDetails.creditorId:invalidCreditorId'],
    ],
    [
      'a creditor id of the wrong shape',
      () => body({ cpoPaymentDetails: payment({ creditorId: 'ZZZ09999999999' }) }),
      ['cpoPaymentDetails.creditorId:invalidCreditorId'],
    ],
    [
      'bank transfer requires IBAN, bank name and BIC',
      () =>
        body({
          cpoPaymentDetails: payment({ cpoPaymentPreference: ['BANK_TRANSFER'], cpoIban: null, cpoBankName: ' ', cpoBic: undefined }),
        }),
      ['cpoPaymentDetails.cpoBankName:required', 'cpoPaymentDetails.cpoBic:required', 'cpoPaymentDetails.cpoIban:required'],
    ],
    [
      'an IBAN with a wrong checksum',
      () => body({ cpoPaymentDetails: payment({ cpoIban: 'DE89370400440532013001' }) }),
      ['cpoPaymentDetails.cpoIban:invalidIban'],
    ],
    [
      'an IBAN of the wrong length for its country',
      () => body({ cpoPaymentDetails: payment({ cpoIban: 'DE8937040044053201300' }) }),
      ['cpoPaymentDetails.cpoIban:invalidIban'],
    ],
    [
      'a BIC of the wrong shape',
      () => body({ cpoPaymentDetails: payment({ cpoBic: 'COBA1EFF' }) }),
      ['cpoPaymentDetails.cpoBic:invalidBic'],
    ],
    [
      'a BIC of the wrong length',
      () => body({ cpoPaymentDetails: payment({ cpoBic: 'COBADEFFX' }) }),
      ['cpoPaymentDetails.cpoBic:invalidBic'],
    ],
    [
      'a wrong IBAN is refused even when bank transfer is not chosen',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: ['SEPA'], cpoIban: 'DE00370400440532013000' }) }),
      ['cpoPaymentDetails.cpoIban:invalidIban'],
    ],
    [
      'days until payment at least 1',
      () => body({ cpoPaymentDetails: payment({ moneyCollectionGapInDays: 0 }) }),
      ['cpoPaymentDetails.moneyCollectionGapInDays:minOneDay'],
    ],
    [
      'days until payment a whole number',
      () => body({ cpoPaymentDetails: payment({ moneyCollectionGapInDays: 1.5 }) }),
      ['cpoPaymentDetails.moneyCollectionGapInDays:wholeNumber'],
    ],
    [
      'days until payment required',
      () => body({ cpoPaymentDetails: payment({ moneyCollectionGapInDays: undefined }) }),
      ['cpoPaymentDetails.moneyCollectionGapInDays:required'],
    ],
    [
      'days until payment at most a year',
      () => body({ cpoPaymentDetails: payment({ moneyCollectionGapInDays: 2 ** 31 }) }),
      ['cpoPaymentDetails.moneyCollectionGapInDays:tooManyDays'],
    ],
    ['header line 1 required', () => body({ billingTemplateHeader: undefined }), ['billingTemplateHeader.lineOne:required']],
    [
      'every shown header line required (a line after a blank one)',
      () => body({ billingTemplateHeader: { lineOne: 'Neubetreiber', lineTwo: '', lineThree: 'Hamburg' } }),
      ['billingTemplateHeader.lineTwo:required'],
    ],
    [
      'a header line too long',
      () => body({ billingTemplateHeader: { lineOne: 'x'.repeat(256) } }),
      ['billingTemplateHeader.lineOne:max255'],
    ],
  ];

  it.each(refused)('refuses: %s (400 with the code of each field, nothing written)', async (_what, make, expected) => {
    const before = await operatorCount();
    const res = await create(make());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    expect(issuesOf(res)).toEqual(expected);
    expect(await operatorCount()).toBe(before);
  });

  // The good side of each rule.
  const accepted: [string, () => CreateOperatorBody, (d: OperatorDetail) => void][] = [
    [
      'SEPA only: no bank fields needed',
      () => body({ cpoPaymentDetails: { cpoPaymentPreference: ['SEPA'], creditorId: CREDITOR_ID, moneyCollectionGapInDays: 1 } }),
      (d) => {
        expect(d.billingType).toBe('SEPA');
        expect(d.cpoPaymentDetails).toMatchObject({
          cpoPaymentPreference: ['SEPA'],
          creditorId: CREDITOR_ID,
          cpoIban: null,
          moneyCollectionGapInDays: 1,
        });
      },
    ],
    [
      'bank transfer only: no creditor id needed; IBAN with spaces and BIC in lower case are stored compact',
      () =>
        body({
          billingType: 'BANK',
          cpoPaymentDetails: {
            cpoPaymentPreference: ['BANK_TRANSFER'],
            cpoIban: 'de89 3704 0044 0532 0130 00',
            cpoBankName: 'Commerzbank',
            cpoBic: 'cobadeff',
            moneyCollectionGapInDays: 30,
          },
        }),
      (d) => {
        expect(d.billingType).toBe('BANK');
        expect(d.cpoPaymentDetails).toMatchObject({
          cpoPaymentPreference: ['BANK_TRANSFER'],
          cpoIban: IBAN,
          cpoBic: 'COBADEFF',
          creditorId: null,
        });
      },
    ],
    [
      'both modes, sent twice and in another order',
      () => body({ cpoPaymentDetails: payment({ cpoPaymentPreference: ['BANK_TRANSFER', 'SEPA', 'SEPA'] }) }),
      (d) => {
        expect(d.cpoPaymentDetails?.cpoPaymentPreference).toEqual(['SEPA', 'BANK_TRANSFER']);
      },
    ],
    [
      'a foreign IBAN and a creditor id in another SEPA country',
      () =>
        body({
          cpoPaymentDetails: payment({ cpoIban: 'GB82 WEST 1234 5698 7654 32', cpoBic: 'NWBKGB2L', creditorId: 'AT61ZZZ01234567890' }),
        }),
      (d) => {
        expect(d.cpoPaymentDetails).toMatchObject({ cpoIban: 'GB82WEST12345698765432', cpoBic: 'NWBKGB2L' });
      },
    ],
    [
      'four header lines, footers optional and with gaps, c/o given',
      () =>
        body({
          cpoAddress: { street: 'Hafenstraße 7', careOf: 'Hausverwaltung Kai', zipCode: '20457', city: 'Hamburg' },
          billingTemplateHeader: { lineOne: '1', lineTwo: '2', lineThree: '3', lineFour: '4' },
          billingTemplateFooter: { lineThree: 'nur drei' },
          isChargingHistoryIncluded: false,
        }),
      (d) => {
        expect(d.cpoAddress.careOf).toBe('Hausverwaltung Kai');
        expect(d.billingTemplateHeader).toEqual({ lineOne: '1', lineTwo: '2', lineThree: '3', lineFour: '4' });
        expect(d.billingTemplateFooter).toEqual({ lineOne: null, lineTwo: null, lineThree: 'nur drei', lineFour: null });
        expect(d.isChargingHistoryIncluded).toBe(false);
      },
    ],
    [
      'no billing info: only the contact person is stored, nothing of billing is required',
      () =>
        body({ withBillingInfo: false, cpoPaymentDetails: undefined, billingTemplateHeader: undefined, billingTemplateFooter: undefined }),
      (d) => {
        expect(d.cpoPaymentDetails).toBeNull();
        expect(d.billingType).toBeNull();
        expect(d.billingTemplateHeader).toEqual({ lineOne: null, lineTwo: null, lineThree: null, lineFour: null });
        expect(d.contactPersonDetails.contactPersonName).toBe('Nina Neumann');
      },
    ],
  ];

  it.each(accepted)('accepts: %s', async (_what, make, check) => {
    const res = await create(make());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    check(await detail(res.body.data.cpoId));
  });

  it('answers a repeat with the same Idempotency-Key from its record: one operator, the same id', async () => {
    const before = await operatorCount();
    const headers = { 'idempotency-key': 'create-operator-1' };
    const first = await create(body({ cpoName: 'Einmalig GmbH' }), tokens.partner, headers);
    const again = await create(body({ cpoName: 'Einmalig GmbH' }), tokens.partner, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await operatorCount()).toBe(before + 1);
    const other = await create(body({ cpoName: 'Anders GmbH' }), tokens.partner, headers);
    expect(other.status).toBe(422);
    expect(other.body.errorCodeResponse).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await operatorCount()).toBe(before + 1);
  });
});

// ---------------------------------------------------------------------------------------------

const update = (b: unknown, token = tokens.partner, headers?: Record<string, string>) =>
  h.request('PUT', '/bff/cpos/update-operator-information', { token, body: b, headers });

/** The detail without the fields a workflow may change. */
const without = (d: OperatorDetail, ...keys: (keyof OperatorDetail)[]) => {
  const copy: Record<string, unknown> = { ...d };
  for (const k of [...keys, 'version']) delete copy[k];
  return copy;
};

describe('PUT /bff/cpos/update-operator-information', () => {
  it('AddressInfo changes name and address only, whatever else is sent', async () => {
    const cpoId = scopeOf.partner[0];
    const before = await detail(cpoId);
    const res = await update({
      ...before,
      workFlow: 'AddressInfo',
      cpoName: 'Umbenannt GmbH',
      cpoAddress: { street: 'Neue Straße 1', careOf: 'c/o Büro', zipCode: '01067', city: 'Dresden' },
      // Billing fields sent along are not this workflow's: ignored.
      contactPersonDetails: { ...before.contactPersonDetails, contactPersonName: 'Jemand Anderes' },
      billingTemplateHeader: { lineOne: 'Anders' },
      version: before.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(operatorWriteAnswerSchema.parse(res.body.data)).toEqual({ cpoId, version: before.version! + 1 });
    expect(res.headers.get('etag')).toBe(`"v${before.version! + 1}"`);
    const after = await detail(cpoId);
    expect(after.cpoName).toBe('Umbenannt GmbH');
    expect(after.cpoAddress).toEqual({ street: 'Neue Straße 1', careOf: 'c/o Büro', zipCode: '01067', city: 'Dresden', countryCode: 'DE' });
    expect(without(after, 'cpoName', 'cpoAddress')).toEqual(without(before, 'cpoName', 'cpoAddress'));

    // The whole address is sent: a missing c/o is none.
    const again = await update({
      workFlow: 'AddressInfo',
      cpoId,
      cpoName: 'Umbenannt GmbH',
      cpoAddress: { street: 'Neue Straße 1', zipCode: '01067', city: 'Dresden' },
    });
    expect(again.status).toBe(200);
    expect((await detail(cpoId)).cpoAddress.careOf).toBeNull();
  });

  it('BillingInfo changes the invoice template only; lines not sent are cleared; STRIPE_SEPA stays', async () => {
    // An operator whose customers also pay by Stripe SEPA (set up through Stripe, not in this form).
    const cpoId = scopeOf.partner[1];
    await h.db
      .update(operators)
      .set({ paymentPreference: ['SEPA', 'STRIPE_SEPA'] })
      .where(eq(operators.cpoId, cpoId));
    const before = await detail(cpoId);
    const res = await update(
      {
        workFlow: 'BillingInfo',
        cpoId,
        // Not this workflow's: ignored.
        cpoName: 'Nicht übernommen',
        cpoAddress: { street: 'Nirgendwo 1', zipCode: '99999', city: 'Nirgendwo' },
        contactPersonDetails: {
          contactPersonName: 'Karl Kasse',
          contactPersonPosition: 'Kasse',
          contactPersonPhone: '0301234',
          contactPersonEmail: 'karl@kasse.example',
        },
        billingType: 'BANK',
        isChargingHistoryIncluded: false,
        cpoPaymentDetails: {
          cpoPaymentPreference: ['BANK_TRANSFER'],
          cpoIban: IBAN,
          cpoBankName: 'Commerzbank',
          cpoBic: BIC,
          // Its contracts paying by SEPA keep needing one (issue 35), whatever the modes chosen.
          creditorId: CREDITOR_ID,
          moneyCollectionGapInDays: 21,
        },
        billingTemplateHeader: { lineOne: 'Kopf eins', lineTwo: 'Kopf zwei' },
        billingTemplateFooter: { lineOne: 'Fuß eins' },
        // § 14 UStG (issue 24): stored compact; the prefix as given.
        vatId: 'de 123 456 789',
        taxNumber: '30/123/45678',
        billNumberPrefix: 'SWS-',
      },
      tokens.partner,
      { 'if-match': `"v${before.version}"` },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await detail(cpoId);
    expect(after).toMatchObject({
      cpoName: before.cpoName,
      cpoAddress: before.cpoAddress,
      contactPersonDetails: { contactPersonName: 'Karl Kasse', contactPersonPhone: '0301234' },
      billingType: 'BANK',
      isChargingHistoryIncluded: false,
      cpoPaymentDetails: {
        cpoPaymentPreference: ['BANK_TRANSFER', 'STRIPE_SEPA'],
        cpoIban: IBAN,
        cpoBic: BIC,
        creditorId: CREDITOR_ID,
        moneyCollectionGapInDays: 21,
      },
      billingTemplateHeader: { lineOne: 'Kopf eins', lineTwo: 'Kopf zwei', lineThree: null, lineFour: null },
      billingTemplateFooter: { lineOne: 'Fuß eins', lineTwo: null, lineThree: null, lineFour: null },
      vatId: 'DE123456789',
      taxNumber: '30/123/45678',
      billNumberPrefix: 'SWS-',
      version: before.version! + 1,
    });
    const billing = [
      'contactPersonDetails',
      'billingType',
      'isChargingHistoryIncluded',
      'cpoPaymentDetails',
      'billingTemplateHeader',
      'billingTemplateFooter',
      'vatId',
      'taxNumber',
      'billNumberPrefix',
    ] as const;
    expect(without(after, ...billing)).toEqual(without(before, ...billing));
  });

  it('BillingInfo refuses payment details without a creditor id while contracts pay by SEPA, naming them (issue 35); without such contracts it may', async () => {
    const cpoId = scopeOf.partner[1];
    const sepa = (
      (await h.db.execute(
        sql`select contract_number from contracts where cpo_id = ${cpoId} and payment_method = 'SEPA' and contract_status not in ('EXPIRED', 'UNSIGNED_EXPIRED') order by 1`,
      )) as unknown as { rows: { contract_number: string }[] }
    ).rows.map((r) => r.contract_number);
    expect(sepa.length).toBeGreaterThan(0);
    const before = await detail(cpoId);
    const billing = (id: string) => ({
      workFlow: 'BillingInfo',
      cpoId: id,
      contactPersonDetails: body().contactPersonDetails,
      cpoPaymentDetails: { ...body().cpoPaymentDetails!, cpoPaymentPreference: ['BANK_TRANSFER'], creditorId: ' ' },
      billingTemplateHeader: { lineOne: 'Kopf' },
      taxNumber: '30/123/45678',
    });
    const res = await update(billing(cpoId));
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({
      errorCodeResponse: 'SEPA_CREDITOR_ID_REQUIRED',
      errorDetail: { cpoId, contractNumbers: sepa.slice(0, 20), count: sepa.length },
    });
    expect(await detail(cpoId)).toEqual(before);
    // A creditor id that fails its check digits is refused at the field, as before.
    const bad = await update({
      ...billing(cpoId),
      cpoPaymentDetails: { ...billing(cpoId).cpoPaymentDetails, creditorId: 'DE99ZZZ09999999999' },
    });
    expect(bad.status).toBe(400);
    expect(issuesOf(bad)).toContain('cpoPaymentDetails.creditorId:invalidCreditorId');
    // An operator no contract pays by SEPA needs none.
    const fresh = createOperatorAnswerSchema.parse((await create(body({ cpoName: 'Ohne Lastschrift GmbH' }))).body.data);
    const ok = await update(billing(fresh.cpoId));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await detail(fresh.cpoId)).cpoPaymentDetails).toMatchObject({ cpoPaymentPreference: ['BANK_TRANSFER'], creditorId: null });
  });

  it('BillingInfo refuses a VAT id that is not DE and 9 digits, a malformed tax number and a prefix with other characters', async () => {
    const cpoId = scopeOf.partner[1];
    const before = await detail(cpoId);
    const body = (extra: Record<string, unknown>) => ({
      workFlow: 'BillingInfo',
      cpoId,
      contactPersonDetails: {
        contactPersonName: 'Karl Kasse',
        contactPersonPosition: 'Kasse',
        contactPersonPhone: '0301234',
        contactPersonEmail: 'karl@kasse.example',
      },
      cpoPaymentDetails: {
        cpoPaymentPreference: ['BANK_TRANSFER'],
        cpoIban: IBAN,
        cpoBankName: 'Commerzbank',
        cpoBic: BIC,
        moneyCollectionGapInDays: 21,
      },
      billingTemplateHeader: { lineOne: 'Kopf eins' },
      taxNumber: '30/123/45678',
      ...extra,
    });
    for (const [field, value, code] of [
      ['vatId', 'DE12345678', 'invalidVatId'],
      ['vatId', 'AT123456789', 'invalidVatId'],
      ['taxNumber', '12/345', 'invalidTaxNumber'],
      ['taxNumber', '30-123-45678', 'invalidTaxNumber'],
      ['billNumberPrefix', 're-', 'invalidBillNumberPrefix'],
      ['billNumberPrefix', 'RE-2026-SEHR-LANG', 'max12'],
      ['billNumberPrefix', 'RE-2026-CPO', 'billNumberPrefixReserved'],
    ] as const) {
      const res = await update(body({ [field]: value }), tokens.partner);
      expect(res.status, `${field}=${value}`).toBe(400);
      expect(JSON.stringify(res.body), `${field}=${value}`).toContain(code);
    }
    expect((await detail(cpoId)).version).toBe(before.version);
  });

  it('BillingInfo and create need a VAT id or a tax number with billing info (§ 14 UStG), at both fields; either one is enough', async () => {
    const cpoId = scopeOf.partner[1];
    const before = await detail(cpoId);
    const billing = (extra: Record<string, unknown>) => ({
      workFlow: 'BillingInfo',
      cpoId,
      contactPersonDetails: body().contactPersonDetails,
      cpoPaymentDetails: body().cpoPaymentDetails,
      billingTemplateHeader: { lineOne: 'Kopf eins' },
      ...extra,
    });
    for (const extra of [{}, { vatId: '', taxNumber: null }, { vatId: '  ' }]) {
      const res = await update(billing(extra), tokens.partner);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(issuesOf(res), JSON.stringify(extra)).toEqual(['taxNumber:vatIdOrTaxNumber', 'vatId:vatIdOrTaxNumber']);
    }
    expect((await detail(cpoId)).version).toBe(before.version);
    const n = await operatorCount();
    const refused = await create(body({ taxNumber: undefined }));
    expect(refused.status).toBe(400);
    expect(issuesOf(refused)).toEqual(['taxNumber:vatIdOrTaxNumber', 'vatId:vatIdOrTaxNumber']);
    expect(await operatorCount()).toBe(n);
    // Either one is enough; without billing info neither is asked for.
    expect((await update(billing({ vatId: 'DE123456789' }), tokens.partner)).status).toBe(200);
    expect((await update(billing({ taxNumber: '30/123/45678' }), tokens.partner)).status).toBe(200);
    expect((await create(body({ taxNumber: undefined, withBillingInfo: false }))).status).toBe(200);
  });

  it('refuses a bill-number prefix another operator has, in any case, with 409 BILL_NUMBER_PREFIX_TAKEN, and writes nothing', async () => {
    const first = await create(body({ billNumberPrefix: 'UNIQ-' }));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const firstId = createOperatorAnswerSchema.parse(first.body.data).cpoId;
    const n = await operatorCount();
    const second = await create(body({ cpoName: 'Zweiter Präfix GmbH', billNumberPrefix: 'UNIQ-' }));
    expect(second.status, JSON.stringify(second.body)).toBe(409);
    expect(second.body).toMatchObject({ errorCodeResponse: 'BILL_NUMBER_PREFIX_TAKEN', errorDetail: { billNumberPrefix: 'UNIQ-' } });
    expect(await operatorCount()).toBe(n);

    // An edit taking it is refused the same way and leaves the operator as it was.
    const cpoId = scopeOf.partner[1];
    const before = await detail(cpoId);
    const edit = (prefix: string) => ({
      workFlow: 'BillingInfo',
      cpoId,
      contactPersonDetails: body().contactPersonDetails,
      cpoPaymentDetails: body().cpoPaymentDetails,
      billingTemplateHeader: { lineOne: 'Kopf eins' },
      taxNumber: '30/123/45678',
      billNumberPrefix: prefix,
    });
    const taken = await update(edit('UNIQ-'), tokens.partner);
    expect(taken.status, JSON.stringify(taken.body)).toBe(409);
    expect(taken.body).toMatchObject({ errorCodeResponse: 'BILL_NUMBER_PREFIX_TAKEN' });
    expect(await detail(cpoId)).toEqual(before);
    // The index is case-insensitive: a lower-case prefix written past the contract is refused too.
    await expect(h.db.update(operators).set({ billNumberPrefix: 'uniq-' }).where(eq(operators.cpoId, cpoId))).rejects.toThrow();
    // The owner keeps its own prefix on an edit; another free prefix is fine.
    expect((await update({ ...edit('UNIQ-'), cpoId: firstId }, tokens.partner)).status).toBe(200);
    expect((await update(edit('UNIQ2-'), tokens.partner)).status).toBe(200);
  });

  it('BillingInfo without billing info changes the contact person only', async () => {
    const cpoId = scopeOf.partner[1];
    const before = await detail(cpoId);
    const res = await update({
      workFlow: 'BillingInfo',
      cpoId,
      withBillingInfo: false,
      contactPersonDetails: {
        contactPersonName: 'Nur Kontakt',
        contactPersonPosition: 'Empfang',
        contactPersonPhone: '089555',
        contactPersonEmail: 'nur@kontakt.example',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await detail(cpoId);
    expect(after.contactPersonDetails).toEqual({
      contactPersonName: 'Nur Kontakt',
      contactPersonPosition: 'Empfang',
      contactPersonPhone: '089555',
      contactPersonEmail: 'nur@kontakt.example',
    });
    expect(without(after, 'contactPersonDetails')).toEqual(without(before, 'contactPersonDetails'));
  });

  it('refuses bad input with a code per field and changes nothing', async () => {
    const cpoId = scopeOf.partner[0];
    const before = await detail(cpoId);
    const cases: [unknown, string[]][] = [
      [{ workFlow: 'Everything', cpoId }, ['workFlow:invalidWorkflow']],
      [{ cpoId }, ['workFlow:invalidWorkflow']],
      [
        { workFlow: 'AddressInfo', cpoId, cpoName: '', cpoAddress: { street: 'A 1', zipCode: 'abc', city: 'B' } },
        ['cpoAddress.zipCode:digitsOnly', 'cpoName:required'],
      ],
      [
        {
          workFlow: 'BillingInfo',
          cpoId,
          contactPersonDetails: body().contactPersonDetails,
          cpoPaymentDetails: payment({ cpoIban: 'DE89370400440532013001', cpoBic: 'COBA' }),
          billingTemplateHeader: { lineTwo: 'zwei' },
          vatId: 'DE123456789',
        },
        ['billingTemplateHeader.lineOne:required', 'cpoPaymentDetails.cpoBic:invalidBic', 'cpoPaymentDetails.cpoIban:invalidIban'],
      ],
    ];
    for (const [b, expected] of cases) {
      const res = await update(b);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(issuesOf(res)).toEqual(expected);
    }
    expect(await detail(cpoId)).toEqual(before);
  });

  it('answers a stale version with 409 CONFLICT and the operator as it is now; a malformed If-Match is 400', async () => {
    const cpoId = scopeOf.operator[0];
    const before = await detail(cpoId, tokens.operator);
    const address = { workFlow: 'AddressInfo', cpoId, cpoName: 'Erste Änderung', cpoAddress: before.cpoAddress };
    const first = await update(address, tokens.operator, { 'if-match': `"v${before.version}"` });
    expect(first.status).toBe(200);

    // A colleague still at the old version.
    const stale = await update({ ...address, cpoName: 'Zweite Änderung' }, tokens.operator, { 'if-match': `"v${before.version}"` });
    expect(stale.status).toBe(409);
    expect(stale.body.errorCodeResponse).toBe('CONFLICT');
    const conflict = operatorConflictDetailSchema.parse(stale.body.errorDetail);
    expect(conflict.currentVersion).toBe(before.version! + 1);
    expect(conflict.current.cpoName).toBe('Erste Änderung');
    const staleBody = await update({ ...address, cpoName: 'Zweite Änderung', version: before.version }, tokens.operator);
    expect(staleBody.status).toBe(409);
    const erp = await h.request('PUT', '/booking-service/bookings/update-erp-information', {
      token: tokens.operator,
      body: { cpoId, clientNumber: '1', netLedgerAccountNr: '8400', paymentMethod: 'SEPA', version: before.version },
    });
    expect(erp.status).toBe(409);
    expect((await detail(cpoId)).cpoName).toBe('Erste Änderung');

    expect((await update(address, tokens.operator, { 'if-match': 'yesterday' })).status).toBe(400);
    // Without a version the write is accepted (last one wins), as the location edit.
    expect((await update({ ...address, cpoName: 'Dritte Änderung' }, tokens.operator)).status).toBe(200);
  });

  it('answers a repeat with the same Idempotency-Key from its record: applied once', async () => {
    const cpoId = scopeOf.partner[0];
    const before = await detail(cpoId);
    const b = { workFlow: 'AddressInfo', cpoId, cpoName: 'Einmal geändert', cpoAddress: before.cpoAddress, version: before.version };
    const headers = { 'idempotency-key': 'update-operator-1' };
    const first = await update(b, tokens.partner, headers);
    const again = await update(b, tokens.partner, headers);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await detail(cpoId)).version).toBe(before.version! + 1);
  });
});

// ---------------------------------------------------------------------------------------------

const erp = (b: unknown, token = tokens.partner, headers?: Record<string, string>) =>
  h.request('PUT', '/booking-service/bookings/update-erp-information', { token, body: b, headers });

describe('PUT /booking-service/bookings/update-erp-information', () => {
  it('inserts a value for a payment method the operator has none of, and replaces one it has', async () => {
    const created = createOperatorAnswerSchema.parse((await create(body({ cpoName: 'ERP Test GmbH' }))).body.data);
    const cpoId = created.cpoId;

    const first = await erp({
      cpoId,
      clientNumber: '10001',
      netLedgerAccountNr: '8400',
      taxLedgerAccountNr: '1776',
      paymentMethod: 'SEPA',
      version: created.version,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(erpWriteAnswerSchema.parse(first.body.data)).toEqual({
      cpoId,
      version: created.version + 1,
      created: true,
      erpValue: {
        cpoId,
        clientNumber: '10001',
        netLedgerAccountNr: '8400',
        taxLedgerAccountNr: '1776',
        clearingAccountNr: null,
        paymentMethod: 'SEPA',
      },
    });

    // taxLedgerAccountNr is optional (spec 3 §5).
    const second = await erp({ cpoId, clientNumber: '10002', netLedgerAccountNr: '8401', paymentMethod: 'BANK_TRANSFER' });
    expect(second.status).toBe(200);
    expect(second.body.data.created).toBe(true);

    const count = await erpCount();
    const replaced = await erp({ cpoId, clientNumber: '20001', netLedgerAccountNr: '8500', paymentMethod: 'SEPA' }, tokens.partner, {
      'if-match': `"v${created.version + 2}"`,
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data).toMatchObject({ created: false, version: created.version + 3 });
    expect(await erpCount()).toBe(count);

    const d = await detail(cpoId);
    expect(d.erpValues).toEqual([
      {
        cpoId,
        clientNumber: '20001',
        netLedgerAccountNr: '8500',
        taxLedgerAccountNr: null,
        clearingAccountNr: null,
        paymentMethod: 'SEPA',
      },
      {
        cpoId,
        clientNumber: '10002',
        netLedgerAccountNr: '8401',
        taxLedgerAccountNr: null,
        clearingAccountNr: null,
        paymentMethod: 'BANK_TRANSFER',
      },
    ]);
    // Stripe's methods have values too, with the clearing account their bills are posted on (issue 35).
    const stripe = await erp({
      cpoId,
      clientNumber: '10003',
      netLedgerAccountNr: '8402',
      clearingAccountNr: ' 1360 ',
      paymentMethod: 'STRIPE_CARD',
    });
    expect(stripe.status, JSON.stringify(stripe.body)).toBe(200);
    expect((await detail(cpoId)).erpValues[2]).toEqual({
      cpoId,
      clientNumber: '10003',
      netLedgerAccountNr: '8402',
      taxLedgerAccountNr: null,
      clearingAccountNr: '1360',
      paymentMethod: 'STRIPE_CARD',
    });
    // The ERP values are their own: the rest of the operator is as it was created.
    expect(d.cpoName).toBe('ERP Test GmbH');
    expect(d.cpoPaymentDetails?.cpoIban).toBe(IBAN);
  });

  it('refuses bad input with a code per field and writes nothing', async () => {
    const cpoId = scopeOf.partner[0];
    const count = await erpCount();
    const cases: [unknown, string[]][] = [
      [{ cpoId }, ['clientNumber:required', 'netLedgerAccountNr:required', 'paymentMethod:required']],
      [{ cpoId, clientNumber: ' ', netLedgerAccountNr: '8400', paymentMethod: 'SEPA' }, ['clientNumber:required']],
      [
        { cpoId, clientNumber: '1', netLedgerAccountNr: '8400', paymentMethod: 'NO_PAYMENT_METHOD' },
        ['paymentMethod:Invalid option: expected one of "BANK_TRANSFER"|"STRIPE_SEPA"|"SEPA"|"STRIPE_CARD"'],
      ],
      // The clearing account (Geldtransitkonto, issue 35) is a ledger account too.
      [
        { cpoId, clientNumber: '1', netLedgerAccountNr: '8400', clearingAccountNr: '13', paymentMethod: 'STRIPE_CARD' },
        ['clearingAccountNr:ledgerAccount'],
      ],
      [{ cpoId, clientNumber: '1'.repeat(51), netLedgerAccountNr: '8400', paymentMethod: 'SEPA' }, ['clientNumber:max50']],
      [{ clientNumber: '1', netLedgerAccountNr: '8400', paymentMethod: 'SEPA' }, ['cpoId:required']],
      // Ledger accounts are 4 to 8 digits, as the ERP XML's schema and DATEV need them.
      [
        { cpoId, clientNumber: '1', netLedgerAccountNr: 'ER-8400/A', paymentMethod: 'SEPA' },
        ['netLedgerAccountNr:ledgerAccount', 'netLedgerAccountNr:max8'],
      ],
      [{ cpoId, clientNumber: '1', netLedgerAccountNr: '84a0', paymentMethod: 'SEPA' }, ['netLedgerAccountNr:ledgerAccount']],
      [
        { cpoId, clientNumber: '1', netLedgerAccountNr: '840', taxLedgerAccountNr: '177', paymentMethod: 'SEPA' },
        ['netLedgerAccountNr:ledgerAccount', 'taxLedgerAccountNr:ledgerAccount'],
      ],
      [
        { cpoId, clientNumber: '1', netLedgerAccountNr: '8400', taxLedgerAccountNr: '1'.repeat(30), paymentMethod: 'SEPA' },
        ['taxLedgerAccountNr:ledgerAccount'],
      ],
    ];
    for (const [b, expected] of cases) {
      const res = await erp(b);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(issuesOf(res)).toEqual(expected);
    }
    expect(await erpCount()).toBe(count);
  });

  it('answers a repeat with the same Idempotency-Key from its record', async () => {
    const cpoId = scopeOf.partner[0];
    const version = (await detail(cpoId)).version!;
    const b = { cpoId, clientNumber: '555', netLedgerAccountNr: '8400', paymentMethod: 'STRIPE_SEPA', version };
    const headers = { 'idempotency-key': 'erp-1' };
    const first = await erp(b, tokens.partner, headers);
    const again = await erp(b, tokens.partner, headers);
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await detail(cpoId)).version).toBe(version + 1);
  });
});

// ---------------------------------------------------------------------------------------------

describe('scope of the operator routes', () => {
  it('lists and opens per role: operator its one, partner its customer’s, admin all', async () => {
    expect(scopeOf.operator).toHaveLength(1);
    expect(scopeOf.partner.length).toBeGreaterThan(1);
    const all = await listIds(tokens.admin);
    expect(all).toEqual(expect.arrayContaining([...scopeOf.operator, ...scopeOf.partner]));
    for (const [role, cpoId, status] of [
      ['operator', scopeOf.operator[0], 200],
      ['operator', scopeOf.partner[0], 404],
      ['partner', scopeOf.partner[0], 200],
      ['partner', scopeOf.operator[0], 404],
      ['admin', scopeOf.operator[0], 200],
      ['admin', scopeOf.partner[0], 200],
    ] as const) {
      const res = await h.request('GET', `/bff/cpos/${cpoId}/operator-details`, { token: tokens[role] });
      expect(res.status, `${role} ${cpoId}`).toBe(status);
      if (status === 200) expect(res.headers.get('etag')).toBe(`"v${res.body.data.version}"`);
    }
  });

  it('answers 404 OPERATOR_NOT_FOUND for another customer’s operator and for none at all, on every write, and writes nothing', async () => {
    const foreign = scopeOf.partner[0];
    const before = await detail(foreign);
    const erpBefore = await erpCount();
    const writes = (cpoId: string) => [
      () => update({ workFlow: 'AddressInfo', cpoId, cpoName: 'Gekapert', cpoAddress: before.cpoAddress }, tokens.operator),
      () =>
        update(
          { workFlow: 'BillingInfo', cpoId, withBillingInfo: false, contactPersonDetails: body().contactPersonDetails },
          tokens.operator,
        ),
      () => erp({ cpoId, clientNumber: '1', netLedgerAccountNr: '8400', paymentMethod: 'SEPA' }, tokens.operator),
    ];
    for (const [cpoId, token] of [
      [foreign, tokens.operator],
      ['CPO9999', tokens.operator],
      ['CPO9999', tokens.admin],
    ] as const) {
      for (const write of writes(cpoId)) {
        const res = await write();
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ errorCodeResponse: 'OPERATOR_NOT_FOUND', errorDetail: { cpoId } });
      }
      const read = await h.request('GET', `/bff/cpos/${cpoId}/operator-details`, { token });
      expect(read.status).toBe(404);
      expect(read.body.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
    }
    expect(await detail(foreign)).toEqual(before);
    expect(await erpCount()).toBe(erpBefore);
  });

  it('lets the Operator account edit its own operator and an admin any', async () => {
    const own = scopeOf.operator[0];
    const d = await detail(own);
    expect(
      (await update({ workFlow: 'AddressInfo', cpoId: own, cpoName: 'Eigener Betreiber', cpoAddress: d.cpoAddress }, tokens.operator))
        .status,
    ).toBe(200);
    expect((await erp({ cpoId: own, clientNumber: '7', netLedgerAccountNr: '8400', paymentMethod: 'SEPA' }, tokens.operator)).status).toBe(
      200,
    );
    expect(
      (await update({ workFlow: 'AddressInfo', cpoId: scopeOf.partner[1], cpoName: 'Vom Admin', cpoAddress: d.cpoAddress }, tokens.admin))
        .status,
    ).toBe(200);
    expect((await detail(scopeOf.partner[1])).cpoName).toBe('Vom Admin');
  });
});
