import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { StationPlan } from './simulated-station';

/**
 * Which stations to simulate, read from the database: placed stations with a password (the demo
 * seed's have the documented one) and none of their connectors removed, in cp_id order from the
 * `skip`th on, each with RFID tags of its operator's contracts, active ones first.
 */
export async function planFromDb(db: Db, count: number, only?: string[], skip = 0): Promise<StationPlan[]> {
  const rows = (
    (await db.execute(sql`
      with stations as (
        select c.cp_id, c.cpo_id, count(*)::int as connectors
        from connectors c join ocpp_stations s on s.cp_id = c.cp_id and s.password_hash is not null
        where c.location_id is not null ${only ? sql`and c.cp_id in ${only}` : sql``}
        group by c.cp_id, c.cpo_id
        having bool_and(not c.removed) and max(c.connector_number) = count(*)
        order by c.cp_id collate "C"
        limit ${count} offset ${skip}
      )
      select s.cp_id, s.connectors, coalesce((
        select array_agg(t.rfid_tag) from (
          select r.rfid_tag from rfid_tags r join contracts k on k.contract_key = r.contract_key
          where k.cpo_id = s.cpo_id order by k.contract_status <> 'ACTIVE', r.rfid_tag limit 20
        ) t), '{}') as tags
      from stations s order by s.cp_id collate "C"`)) as unknown as { rows: { cp_id: string; connectors: number; tags: string[] }[] }
  ).rows;
  return rows.map((r) => ({ cpId: r.cp_id, connectors: r.connectors, tags: r.tags }));
}
