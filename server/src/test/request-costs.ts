import { sql } from 'drizzle-orm';

/**
 * Every charging request's cost recomputed independently of the seed, the station path and
 * migration 0022 (issue 35): the tariff row in force on the request's Berlin start day by a
 * correlated subquery (the first row also before its date), and the bills' rule in integers (Wh ×
 * ten-thousandths of a euro per kWh, half up to the cent, plus the fee; nothing without energy).
 * Rows: transaction_id, stored_cents, cents.
 */
export const independentRequestCosts = sql`
  with r as (
    select q.transaction_id, q.cost, (q.energy_kwh * 1000)::bigint as wh,
      coalesce(
        (select t.valid_from from contract_tariffs t
          where t.contract_key = q.contract_key and t.valid_from <= (q.start_date at time zone 'Europe/Berlin')::date
          order by t.valid_from desc limit 1),
        (select min(t.valid_from) from contract_tariffs t where t.contract_key = q.contract_key)
      ) as valid_from, q.contract_key
    from charging_requests q where q.contract_key is not null
  )
  select r.transaction_id, (r.cost * 100)::bigint::text as stored_cents,
    (case when r.wh = 0 then 0
      else (2 * r.wh * (t.var_tariff * 10000)::bigint + 100000) / 200000 + (t.fix_tariff_per_charging_request * 100)::bigint end)::text as cents
  from r join contract_tariffs t on t.contract_key = r.contract_key and t.valid_from = r.valid_from`;

/** Operator and Berlin month groups where a cost roll-up differs from its charging requests (none when the triggers followed). */
export const costRollupMismatches = sql`
  with requests as (
    select cpo_id, date_trunc('month', start_date at time zone 'Europe/Berlin')::date as month, sum(cost) as cost
    from charging_requests group by 1, 2
  ), rollups as (
    select 'days' as rollup, cpo_id, date_trunc('month', day)::date as month, sum(cost) as cost from charging_request_days group by 1, 2, 3
    union all select 'months', cpo_id, month, sum(cost) from charging_request_months group by 1, 2, 3
    union all select 'operator_days', cpo_id, date_trunc('month', day)::date, sum(cost) from charging_request_operator_days group by 1, 2, 3
    union all select 'operator_months', cpo_id, month, sum(cost) from charging_request_operator_months group by 1, 2, 3
  )
  select x.rollup, x.cpo_id, x.month::text, x.cost::text as rollup_cost, r.cost::text as request_cost
  from rollups x left join requests r on r.cpo_id = x.cpo_id and r.month = x.month
  where x.cost is distinct from coalesce(r.cost, 0)`;
