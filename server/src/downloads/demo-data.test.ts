import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCreditorId } from '../../../contract/operators';
import { createHarness, type Harness } from '../test/harness';

/** The accounting files on the demo seed as it is: a user trying the download center meets files, not errors. */

let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await createHarness();
  admin = (await h.login('admin')).access_token;
});
afterAll(() => h?.close());

type Case = { cpo_id: string; payment_method: string; month_start: string; month_end: string };

describe('the download center on demo data', () => {
  it('gives a DATEV file and an ERP XML for every operator and payment method with an ERP value and bills in the newest billed month', async () => {
    const { rows } = (await h.db.execute(sql`
      select distinct b.cpo_id, b.payment_method,
        to_char(date_trunc('month', m.newest), 'YYYY-MM-DD') as month_start,
        to_char(date_trunc('month', m.newest) + interval '1 month' - interval '1 day', 'YYYY-MM-DD') as month_end
      from bills b
      join erp_values e on e.cpo_id = b.cpo_id and e.payment_method = b.payment_method
      cross join (select max(bill_generation_date at time zone 'Europe/Berlin') as newest from bills) m
      where b.bill_generation_date at time zone 'Europe/Berlin' >= date_trunc('month', m.newest)
        and b.billing_status in ('GENERATED', 'SENT', 'PAID', 'UNPAID')
      order by 1, 2`)) as unknown as { rows: Case[] };
    expect(rows.length).toBeGreaterThan(1);
    for (const c of rows) {
      const q = `cpoId=${c.cpo_id}&locationIds=all&paymentMethod=${c.payment_method}&startDate=${c.month_start}&endDate=${c.month_end}`;
      for (const kind of ['datev', 'xml']) {
        const res = await h.app.request(`/booking-service/bookings/generate/${kind}?${q}`, {
          headers: { authorization: `Bearer ${admin}` },
        });
        const body = await res.text();
        expect(`${kind} ${q}: ${res.status}`, body.slice(0, 300)).toBe(`${kind} ${q}: 200`);
      }
    }
  });

  it('has a valid creditor id for every operator whose contracts pay by SEPA direct debit (issue 35)', async () => {
    const { rows } = (await h.db.execute(sql`
      select o.cpo_id, o.creditor_id, o.payment_preference from operators o
      where exists (select 1 from contracts c where c.cpo_id = o.cpo_id and c.payment_method = 'SEPA') order by 1`)) as unknown as {
      rows: { cpo_id: string; creditor_id: string | null; payment_preference: string[] }[];
    };
    expect(rows.length).toBeGreaterThan(1);
    for (const r of rows)
      expect([r.cpo_id, isCreditorId(r.creditor_id ?? ''), r.payment_preference.includes('SEPA')]).toEqual([r.cpo_id, true, true]);
  });

  it("collects a mandate the demo's paid SEPA bills collected before as RCUR in the first file made (issue 35)", async () => {
    // The newest collection day of open SEPA bills whose contract has a paid SEPA bill before.
    const { rows } = (await h.db.execute(sql`
      select b.cpo_id, to_char((b.bill_generation_date at time zone 'Europe/Berlin')::date + coalesce(o.money_collection_gap_in_days, 0), 'YYYY-MM-DD') as day,
        count(*) filter (where exists (select 1 from bills p where p.contract_key = b.contract_key and p.payment_method = 'SEPA' and p.billing_status = 'PAID'))::int as collected,
        count(*)::int as n
      from bills b join operators o on o.cpo_id = b.cpo_id
      where b.payment_method = 'SEPA' and b.billing_status in ('GENERATED', 'SENT') and b.total_taxed_costs > 0 and b.bill_collection_date is null
      group by 1, 2 order by collected desc, 2 desc limit 1`)) as unknown as {
      rows: { cpo_id: string; day: string; collected: number; n: number }[];
    };
    const c = rows[0]!;
    expect(c.collected).toBeGreaterThan(0);
    const res = await h.app.request(`/booking-service/bookings/generate/sepa?cpoId=${c.cpo_id}&collectionDate=${c.day}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const xml = await res.text();
    expect(res.status, xml.slice(0, 300)).toBe(200);
    const blocks = [...xml.matchAll(/<PmtInf>([\s\S]*?)<\/PmtInf>/g)].map((m) => m[1]!);
    const byType = Object.fromEntries(
      blocks.map((x) => [/<SeqTp>(\w+)<\/SeqTp>/.exec(x)![1], [...x.matchAll(/<DrctDbtTxInf>/g)].length] as const),
    );
    expect(byType.RCUR ?? 0).toBe(c.collected);
    expect((byType.FRST ?? 0) + (byType.RCUR ?? 0)).toBe(c.n);
  });
});
