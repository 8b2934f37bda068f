import { drawRows, seedSizes } from '../../seed/seed';
import { createRandom } from '../../seed/random';
import type { StationPlan } from './simulated-station';

/**
 * The demo seed's stations and tags drawn again from its random stream (the same size and seed give
 * the same stations, connectors and cards), for `npm run simulate` beside a server on PGlite, whose
 * database files the server holds alone. Contract statuses may differ from the server's where they
 * depend on the seeding day; the server decides each tag anyway. The order is planFromDb's (cp_id),
 * so a `skip` leaves out the same stations there and here.
 */
export async function planFromSeed(size: keyof typeof seedSizes, count: number, skip = 0): Promise<StationPlan[]> {
  const rows = await drawRows({ spec: seedSizes[size], now: new Date(), rnd: createRandom(20260101) });
  const tagsByOperator = new Map<string, string[]>();
  const contractOperator = new Map(rows.contractRows.filter((c) => c.contractStatus === 'ACTIVE').map((c) => [c.contractKey, c.cpoId]));
  for (const card of rows.rfidRows) {
    const cpoId = card.contractKey ? contractOperator.get(card.contractKey) : undefined;
    if (!cpoId) continue;
    const list = tagsByOperator.get(cpoId) ?? [];
    if (list.length < 20) list.push(card.rfidTag);
    tagsByOperator.set(cpoId, list);
  }
  const stations = new Map<string, { cpoId: string; connectors: number; usable: boolean }>();
  for (const c of rows.connectorRows) {
    const s = stations.get(c.cpId) ?? { cpoId: c.cpoId, connectors: 0, usable: true };
    s.connectors++;
    s.usable &&= !c.removed && !!c.locationId;
    stations.set(c.cpId, s);
  }
  return [...stations.entries()]
    .filter(([, s]) => s.usable)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(skip, skip + count)
    .map(([cpId, s]) => ({ cpId, connectors: s.connectors, tags: tagsByOperator.get(s.cpoId) ?? [] }));
}
