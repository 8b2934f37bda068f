import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
