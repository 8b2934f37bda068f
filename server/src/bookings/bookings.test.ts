import { gunzipSync } from 'node:zlib';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthUser, scopeFor } from '../auth/scope';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { demoAccounts } from '../seed/seed';
import de from '../../../locales/de.json' with { type: 'json' };
import { historyCsv, historyCsvColumns } from './handlers';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let tokens: Record<'operator' | 'partner', string>;
let ownCpo: string;

beforeAll(async () => {
  h = await createHarness();
  tokens = { operator: (await h.login('operator')).access_token, partner: (await h.login('partner')).access_token };
  ownCpo = (await h.request('GET', '/bff/cpos?page=0&size=10', { token: tokens.operator })).body.data.response[0].cpoId;
});
afterAll(() => h?.close());

describe('PUT /booking-service/bookings/billing-status-update', () => {
  it("sets the caller's bills, counts what changed, and refuses the whole list when one bill is not theirs", async () => {
    const own = await h.db.select({ n: bills.billNumber, s: bills.billingStatus }).from(bills).where(eq(bills.cpoId, ownCpo)).limit(2);
    const [theirs] = await h.db
      .select({ n: bills.billNumber })
      .from(bills)
      .where(sql`${bills.cpoId} <> ${ownCpo}`)
      .limit(1);
    const put = (body: unknown, token = tokens.operator) =>
      h.request('PUT', '/booking-service/bookings/billing-status-update', { body, token });

    const mixed = await put([
      { billingNumber: own[0].n, billingStatus: 'PAID' },
      { billingNumber: theirs.n, billingStatus: 'PAID' },
    ]);
    expect(mixed.status).toBe(404);
    expect(mixed.body).toMatchObject({ errorCodeResponse: 'BILLING_NOT_FOUND', errorDetail: { billingNumbers: [theirs.n] } });
    const status = async (n: string) => (await h.db.select({ s: bills.billingStatus }).from(bills).where(eq(bills.billNumber, n)))[0].s;
    expect(await status(own[0].n)).toBe(own[0].s);

    await h.db
      .update(bills)
      .set({ billingStatus: 'UNPAID' })
      .where(inArray(bills.billNumber, [own[0].n, own[1].n]));
    const res = await put(own.map((b) => ({ billingNumber: b.n, billingStatus: 'PAID' })));
    expect(res.status).toBe(200);
    expect(res.body.data.updated).toBe(2);
    expect(await status(own[1].n)).toBe('PAID');
    expect((await put(own.map((b) => ({ billingNumber: b.n, billingStatus: 'PAID' })))).body.data.updated).toBe(0);

    const dup = await put([
      { billingNumber: own[0].n, billingStatus: 'PAID' },
      { billingNumber: own[0].n, billingStatus: 'UNPAID' },
    ]);
    expect(dup.status).toBe(400);
    expect((await put([{ billingNumber: own[0].n, billingStatus: 'SENT' }])).status).toBe(400);
  });
});

describe('GET /booking-service/bookings/charging-history/export', () => {
  it('refuses impossible dates with 400 and the field, not a 500', async () => {
    const [one] = await h.db
      .select({ key: chargingRequests.contractKey })
      .from(chargingRequests)
      .where(and(eq(chargingRequests.cpoId, ownCpo), sql`${chargingRequests.contractKey} is not null`))
      .limit(1);
    const url = (q: string) => `/booking-service/bookings/charging-history/export?contractKey=${one.key}&${q}`;
    for (const [q, field] of [
      ['startDate=2026-02-30&endDate=2026-03-31', 'startDate'],
      ['startDate=2026-01-01&endDate=2026-13-01', 'endDate'],
      ['startDate=0000-01-01&endDate=2026-01-01', 'startDate'],
    ]) {
      const res = await h.request('GET', url(q), { token: tokens.operator });
      expect(res.status, q).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
      expect(res.body.issues).toContainEqual({ path: field, message: 'yyyy-MM-dd' });
    }
  });

  it('streams the contract history of the range as CSV for German Excel, 204 without rows, 404 for a foreign contract', async () => {
    const [busy] = await h.db
      .select({ key: chargingRequests.contractKey, n: sql<number>`count(*)::int` })
      .from(chargingRequests)
      .where(and(eq(chargingRequests.cpoId, ownCpo), sql`${chargingRequests.contractKey} is not null`))
      .groupBy(chargingRequests.contractKey)
      .orderBy(desc(sql`count(*)`))
      .limit(1);
    const [one] = await h.db.select().from(chargingRequests).where(eq(chargingRequests.contractKey, busy.key!)).limit(1);
    await h.db
      .update(chargingRequests)
      .set({ customerFullName: '=HYPERLINK("x")' })
      .where(eq(chargingRequests.transactionId, one.transactionId));

    const url = (q: string) => `/booking-service/bookings/charging-history/export?contractKey=${busy.key}&${q}`;
    const res = await h.app.request(url('startDate=2000-01-01&endDate=2030-12-31'), {
      headers: { authorization: `Bearer ${tokens.operator}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="Ladehistorie_\d{2}\.\d{2}\.\d{4}\.csv"/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0].split(';')[0]).toBe('Transaktions-ID');
    expect(lines).toHaveLength(busy.n + 1);
    const row = lines.find((l) => l.startsWith(one.transactionId))!;
    expect(row).toContain(`'=HYPERLINK(""x"")`);
    expect(row).toMatch(/;\d+,\d{3};\d+,\d{2}$/);
    // Enum cells in German like the headers: no 'APP' or 'terminated_request' in the file.
    const cells = lines.slice(1).map((l) => l.split(';'));
    const statusAt = historyCsvColumns.indexOf('Status');
    const authAt = historyCsvColumns.indexOf('Autorisierung');
    expect(cells.every((c) => ['App', 'RFID', 'App und RFID'].includes(c[authAt]))).toBe(true);
    const germanStatuses: string[] = Object.values(de.chargingRequest.status);
    expect(cells.every((c) => germanStatuses.includes(c[statusAt]))).toBe(true);
    expect(row.split(';')[statusAt]).toBe(de.chargingRequest.status[one.status as keyof typeof de.chargingRequest.status]);

    // Compressed as it streams: the same file after gunzip.
    const zipped = await h.app.request(url('startDate=2000-01-01&endDate=2030-12-31'), {
      headers: { authorization: `Bearer ${tokens.operator}`, 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await zipped.arrayBuffer())).equals(bytes)).toBe(true);

    // Read in pages of 2 (keyset from each page's last row), the file is the same, row for row.
    const scope = await scopeFor(
      h.db,
      (await loadAuthUser(
        h.db,
        (await h.db.select({ id: dashboardUsers.id }).from(dashboardUsers).where(eq(dashboardUsers.email, demoAccounts.operator.email)))[0]
          .id,
      ))!,
    );
    const paged = await historyCsv(h.db, scope, { contractKey: busy.key!, startDate: '2000-01-01', endDate: '2030-12-31' }, 2);
    expect(Buffer.from(await new Response(paged).arrayBuffer()).equals(bytes)).toBe(true);

    const empty = await h.request('GET', url('startDate=2001-01-01&endDate=2001-01-31'), { token: tokens.operator });
    expect(empty.status).toBe(204);
    const foreign = await h.request('GET', url('startDate=2000-01-01&endDate=2030-12-31'), { token: tokens.partner });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCodeResponse).toBe('CONTRACT_NOT_FOUND');
    const backwards = await h.request('GET', url('startDate=2026-02-01&endDate=2026-01-01'), { token: tokens.operator });
    expect(backwards.status).toBe(400);
    // The contract exists: the answer reads it, not an empty page of another one.
    expect((await h.db.select().from(contracts).where(eq(contracts.contractKey, busy.key!))).length).toBe(1);
  });
});
