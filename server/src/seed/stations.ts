import type { ConnectorStatus } from '../../../contract/enums';
import type { locationInfrastructure, locations } from '../db/schema/locations';
import type { connectors } from '../db/schema/stations';
import { DAY, type SeedContext } from './common';
import { wallboxModelRows } from './german-data';

/**
 * Connectors spread over the locations, grouped in stations of 1 or 2 connectors, and each
 * location's infrastructure (its stations per model) as they came out.
 */
export function drawConnectors(ctx: SeedContext, locationRows: (typeof locations.$inferInsert)[]) {
  const { rnd, now, spec } = ctx;
  const infraRows: (typeof locationInfrastructure.$inferInsert)[] = [];
  const perLocation = locationRows.map(
    (_, i) => Math.floor(spec.connectors / spec.locations) + (i < spec.connectors % spec.locations ? 1 : 0),
  );
  for (let k = 0; k < spec.locations; k++) {
    const a = rnd.int(0, spec.locations - 1);
    const b = rnd.int(0, spec.locations - 1);
    const move = rnd.int(0, Math.floor(perLocation[a] / 3));
    perLocation[a] -= move;
    perLocation[b] += move;
  }
  const connectorRows: (typeof connectors.$inferInsert)[] = [];
  const forcedConnectors: [ConnectorStatus, boolean /* parking lot */, boolean /* removed */][] = [
    ['IDLE', true, false],
    ['CONNECTED_UNAVAILABLE', true, false],
    ['CONNECTED_UNAVAILABLE', false, false],
    ['OCCUPIED_UNCHARGED', true, false],
    ['OCCUPIED_CHARGING', true, false],
    ['OFFLINE', true, false],
    ['INACTIVE', false, false],
    ['INACTIVE', false, true],
  ];
  let stationSeq = 1;
  const singleModels = wallboxModelRows.filter((m) => m.connectorsPerStation === 1);
  locationRows.forEach((loc, li) => {
    let remaining = perLocation[li];
    let lot = 1;
    const infra = new Map<string, number>();
    while (remaining > 0) {
      let model = rnd.pick(wallboxModelRows) as (typeof wallboxModelRows)[number];
      if (model.connectorsPerStation > remaining) model = rnd.pick(singleModels);
      infra.set(model.name, (infra.get(model.name) ?? 0) + 1);
      const cpId = `OLI${String(stationSeq++).padStart(6, '0')}`;
      const onlineSince = new Date(now.getTime() - rnd.int(30, 500) * DAY - rnd.int(0, DAY));
      for (let n = 1; n <= model.connectorsPerStation; n++) {
        const idx = connectorRows.length;
        let status: ConnectorStatus;
        let hasLot: boolean;
        let removed: boolean;
        if (idx < forcedConnectors.length) [status, hasLot, removed] = forcedConnectors[idx];
        else {
          removed = rnd.chance(0.03);
          status = removed
            ? rnd.pick(['INACTIVE', 'OFFLINE'] as const)
            : rnd.weighted<ConnectorStatus>({
                IDLE: 40,
                CONNECTED_UNAVAILABLE: 20,
                OCCUPIED_UNCHARGED: 8,
                OCCUPIED_CHARGING: 12,
                OFFLINE: 10,
                INACTIVE: 10,
              });
          hasLot = !removed && (status === 'CONNECTED_UNAVAILABLE' ? rnd.chance(0.5) : status === 'INACTIVE' ? rnd.chance(0.4) : true);
        }
        const offline = status === 'OFFLINE' || status === 'INACTIVE';
        connectorRows.push({
          connectorId: `${cpId}_${n}`,
          cpId,
          connectorNumber: n,
          cpoId: loc.cpoId,
          locationId: loc.locationId,
          parkingLot: hasLot ? (li % 3 === 0 ? `P${lot++}` : String(lot++)) : null,
          wallboxModel: model.name,
          status,
          removed,
          onlineSince: offline ? null : onlineSince,
          // INACTIVE: created, never connected (spec 2 §3), so never heard from; OFFLINE: silent for days.
          lastHeartbeat:
            status === 'INACTIVE'
              ? null
              : offline
                ? new Date(now.getTime() - rnd.int(2, 60) * DAY)
                : new Date(now.getTime() - rnd.int(5, 300) * 1000),
          createdAt: new Date(onlineSince.getTime() - DAY),
        });
        remaining--;
      }
    }
    for (const [model, n] of infra) {
      infraRows.push({
        locationId: loc.locationId,
        chargingStationModel: model,
        numOfChargingStations: Math.min(n, 100),
      });
    }
  });
  return { connectorRows, infraRows };
}
