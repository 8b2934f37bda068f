import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billPageSchema } from '../../../contract/bills';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let tokens: Record<'operator' | 'admin', string>;
let ownCpo: string;
let foreignCpo: string;

const LIST = '/booking-service/bookings/get-bills/operator';
/** An end customer id no seeded bill has: the test's own bills are found by it. */
const CUSTOMER = 'LISTTEST-1';

type NewBill = Partial<typeof bills.$inferInsert> & { billNumber: string; billGenerationDate: Date };

async function addBill(cpoId: string, b: NewBill) {
  const [c] = await h.db.select({ key: contracts.contractKey }).from(contracts).where(eq(contracts.cpoId, cpoId)).limit(1);
  await h.db.insert(bills).values({
    billId: `id-${b.billNumber}`,
    contractKey: c.key,
    cpoId,
    endCustomerId: CUSTOMER,
    endCustomerFirstName: 'Erika',
    endCustomerLastName: 'Muster',
    userType: 'REGULAR',
    startDate: '2026-02-01',
    endDate: '2026-02-28',
    totalTaxedCosts: '12.34',
    billingStatus: 'GENERATED',
    paymentMethod: 'SEPA',
    monthNumber: 2,
    yearNumber: 2026,
    // As IMMEDIATE bills, so the one-bill-per-period index leaves them be.
    chargingRequestId: `cr-${b.billNumber}`,
    ...b,
  });
}

const list = async (query: string, token = tokens.operator) => {
  const res = await h.request('GET', `${LIST}?${query}`, { token });
  return { status: res.status, body: res.body, page: res.status === 200 ? billPageSchema.parse(res.body.data) : undefined };
};
const numbers = (page: { response: { billNumber: string }[] } | undefined) => page?.response.map((r) => r.billNumber);

beforeAll(async () => {
  h = await createHarness();
  tokens = { operator: (await h.login('operator')).access_token, admin: (await h.login('admin')).access_token };
  ownCpo = (await h.request('GET', '/bff/cpos?page=0&size=10', { token: tokens.operator })).body.data.response[0].cpoId;
  const [other] = await h.db
    .select({ cpo: contracts.cpoId })
    .from(contracts)
    .where(sql`${contracts.cpoId} <> ${ownCpo}`)
    .limit(1);
  foreignCpo = other.cpo;
  // Around the Berlin midnight of 1 March (CET, UTC+1) and 1 April (CEST, UTC+2).
  await addBill(ownCpo, { billNumber: 'T-1', billGenerationDate: new Date('2026-02-28T22:59:00Z') });
  await addBill(ownCpo, { billNumber: 'T-2', billGenerationDate: new Date('2026-02-28T23:00:00Z'), billingStatus: 'PAID' });
  await addBill(ownCpo, {
    billNumber: 'T-3',
    billGenerationDate: new Date('2026-03-31T21:59:00Z'),
    paymentMethod: 'STRIPE_SEPA',
    stripeSepaPaymentIntentId: 'pi_123',
    stripeSepaBillPaymentStatus: 'succeeded',
    billCollectionDate: new Date('2026-04-03T08:00:00Z'),
  });
  await addBill(ownCpo, {
    billNumber: 'T-4',
    billGenerationDate: new Date('2026-03-31T22:00:00Z'),
    userType: 'AD_HOC',
    billingStatus: null,
  });
  await addBill(foreignCpo, { billNumber: 'T-FOREIGN', billGenerationDate: new Date('2026-03-10T12:00:00Z') });
});
afterAll(() => h?.close());

describe('GET /booking-service/bookings/get-bills/operator', () => {
  it("answers the caller's bills of Berlin days, newest first, and never another operator's", async () => {
    const all = await list(`endCustomerId=${CUSTOMER}`);
    expect(all.status).toBe(200);
    expect(numbers(all.page)).toEqual(['T-4', 'T-3', 'T-2', 'T-1']);
    expect(all.page?.totalNumberOfRecords).toBe(4);

    // 28 Feb 23:59 Berlin is 22:59Z; 1 Mar 00:00 Berlin is 23:00Z. 31 Mar 23:59 CEST is 21:59Z.
    expect(numbers((await list(`endCustomerId=${CUSTOMER}&startDate=2026-03-01 00:00&endDate=2026-03-31 23:59`)).page)).toEqual([
      'T-3',
      'T-2',
    ]);
    expect(numbers((await list(`endCustomerId=${CUSTOMER}&startDate=2026-02-28&endDate=2026-02-28`)).page)).toEqual(['T-1']);
    expect(numbers((await list(`endCustomerId=${CUSTOMER}&startDate=2026-04-01&endDate=2026-04-01`)).page)).toEqual(['T-4']);

    // The whole unfiltered list holds only the caller's operator's bills.
    const every = await list('size=10000');
    const shown = numbers(every.page) ?? [];
    expect(shown).not.toContain('T-FOREIGN');
    const owners = await h.db.selectDistinct({ cpo: bills.cpoId }).from(bills).where(inArray(bills.billNumber, shown));
    expect(owners).toEqual([{ cpo: ownCpo }]);
    expect(every.page?.totalNumberOfRecords).toBe(shown.length);
    const dates = every.page!.response.map((r) => r.billGenerationDate);
    expect(dates).toEqual([...dates].sort().reverse());

    // An admin sees every operator's.
    expect(numbers((await list(`endCustomerId=${CUSTOMER}`, tokens.admin)).page)).toEqual(['T-4', 'T-3', 'T-FOREIGN', 'T-2', 'T-1']);
  });

  it('filters by status, payment method and user type, pages on the server and answers the spec row', async () => {
    const q = `endCustomerId=${CUSTOMER}`;
    expect(numbers((await list(`${q}&billingStatuses=PAID,GENERATED`)).page)).toEqual(['T-3', 'T-2', 'T-1']);
    expect(numbers((await list(`${q}&paymentMethods=STRIPE_SEPA`)).page)).toEqual(['T-3']);
    expect(numbers((await list(`${q}&userTypes=AD_HOC`)).page)).toEqual(['T-4']);
    expect(numbers((await list(`${q}&userTypes=REGULAR&billingStatuses=GENERATED&paymentMethods=SEPA`)).page)).toEqual(['T-1']);

    const second = await list(`${q}&page=1&size=3`);
    expect(numbers(second.page)).toEqual(['T-1']);
    expect(second.page?.totalNumberOfRecords).toBe(4);
    const past = await list(`${q}&page=5&size=3`);
    expect(past.page).toEqual({ totalNumberOfRecords: 4, response: [] });

    const [stripe] = (await list(`${q}&paymentMethods=STRIPE_SEPA`)).page!.response;
    expect(stripe).toMatchObject({
      billId: 'id-T-3',
      totalTaxedCosts: '12.34',
      billingStatus: 'GENERATED',
      billCollectionDate: '2026-04-03T08:00:00.000Z',
      billDownloadDate: null,
      stripeSepaPaymentIntentId: 'pi_123',
      stripeSepaBillPaymentStatus: 'succeeded',
      endCustomerFirstName: 'Erika',
      userType: 'REGULAR',
      startDate: '2026-02-01',
    });
    expect((await list(`${q}&userTypes=AD_HOC`)).page!.response[0].billingStatus).toBeNull();
  });

  it("filters by contract: another contract's bills of the same end-customer id are not among them", async () => {
    const [first, second] = await h.db
      .select({ key: contracts.contractKey })
      .from(contracts)
      .where(eq(contracts.cpoId, ownCpo))
      .orderBy(contracts.contractKey)
      .limit(2);
    await addBill(ownCpo, {
      billNumber: 'T-OTHER-CONTRACT',
      contractKey: second.key,
      billGenerationDate: new Date('2026-03-20T12:00:00Z'),
    });
    const byCustomer = numbers((await list(`endCustomerId=${CUSTOMER}`)).page);
    expect(byCustomer).toContain('T-OTHER-CONTRACT');
    const own = (await list(`endCustomerId=&contractKey=${encodeURIComponent(second.key)}&billingStatuses=GENERATED`)).page!;
    expect(own.response.map((r) => [r.billNumber, r.contractKey])).toEqual(expect.arrayContaining([['T-OTHER-CONTRACT', second.key]]));
    expect(own.response.every((r) => r.contractKey === second.key)).toBe(true);
    const firstOnes = (await list(`contractKey=${encodeURIComponent(first.key)}`)).page!;
    expect(numbers(firstOnes)).not.toContain('T-OTHER-CONTRACT');
    expect(firstOnes.response.every((r) => r.contractKey === first.key)).toBe(true);
    await h.db.delete(bills).where(eq(bills.billNumber, 'T-OTHER-CONTRACT'));
  });

  it('refuses unknown values, impossible dates and a range ending before it starts with 400', async () => {
    for (const [query, field] of [
      ['billingStatuses=PAYED', 'billingStatuses'],
      ['paymentMethods=CASH', 'paymentMethods'],
      ['userTypes=ROOT', 'userTypes'],
      ['startDate=2026-02-30', 'startDate'],
      ['startDate=2026-03-10&endDate=2026-03-01', 'endDate'],
      ['size=0', 'size'],
    ]) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errorCodeResponse, query).toBe('VALIDATION_ERROR');
      expect(
        res.body.issues.map((i: { path: string }) => i.path.split('.')[0]),
        query,
      ).toContain(field);
    }
    expect((await h.request('GET', LIST)).status).toBe(401);
  });
});
