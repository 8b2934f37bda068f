import type { ChargingRequestStatus } from '../../../contract/enums';
import type { chargingRequests } from '../db/schema/cockpit';
import { berlinDate } from '../../../contract/contracts';
import { centsToNumeric, requestCostCents, type TariffBlock } from '../bills/compute';
import type { contracts, contractTariffs } from '../db/schema/contracts';
import type { locations } from '../db/schema/locations';
import type { connectors } from '../db/schema/stations';
import { DAY, type SeedContext } from './common';
import type { Card } from './rfid';

const activeStatuses: ChargingRequestStatus[] = [
  'processing',
  'accepted',
  'connected',
  'charging',
  'paused',
  'termination_requested',
  'terminated_request',
];
const forcedHistoric: ChargingRequestStatus[] = [
  'finished',
  'denied',
  'denied_parking_timer',
  'terminated_not_started',
  'terminated_rejected',
  'broken',
];

/** Charging requests: a few live sessions, the rest history over `requestMonths`, with transaction ids in time order. */
export function drawChargingRequests(
  ctx: SeedContext,
  contractRows: (typeof contracts.$inferInsert)[],
  locationRows: (typeof locations.$inferInsert)[],
  connectorRows: (typeof connectors.$inferInsert)[],
  contractTags: Map<string, Card[]>,
) {
  const { rnd, now, spec } = ctx;
  const usableByLocation = new Map<string, (typeof connectors.$inferInsert)[]>();
  for (const c of connectorRows) {
    // Only a connector that has been connected charges: never an INACTIVE one.
    if (!c.removed && c.status !== 'INACTIVE') usableByLocation.set(c.locationId!, [...(usableByLocation.get(c.locationId!) ?? []), c]);
  }
  const locationsByOperator = new Map<string, string[]>();
  for (const l of locationRows) {
    locationsByOperator.set(l.cpoId, [...(locationsByOperator.get(l.cpoId) ?? []), l.locationId]);
  }
  const chargers = contractRows.filter(
    (c) => c.contractStatus === 'ACTIVE' || c.contractStatus === 'BLOCKED' || c.contractStatus === 'EXPIRED',
  );
  const liveCount = Math.max(activeStatuses.length, Math.ceil(spec.connectors / 10));
  const spanMs = spec.requestMonths * 30.4 * DAY;
  const requestDrafts: (Omit<typeof chargingRequests.$inferInsert, 'transactionId'> & { startDate: Date })[] = [];
  for (let i = 0; i < spec.chargingRequests; i++) {
    const contract = chargers[rnd.int(0, chargers.length - 1)];
    const locationId = contract.locationId ?? rnd.pick(locationsByOperator.get(contract.cpoId)!);
    const usable = usableByLocation.get(locationId) ?? connectorRows.filter((c) => c.locationId === locationId);
    const live = i < liveCount;
    const status: ChargingRequestStatus = live
      ? activeStatuses[i % activeStatuses.length]
      : i - liveCount < forcedHistoric.length
        ? forcedHistoric[i - liveCount]
        : rnd.weighted<ChargingRequestStatus>({
            finished: 86,
            denied: 3,
            denied_parking_timer: 1.5,
            terminated_not_started: 3,
            terminated_rejected: 1,
            broken: 1.5,
          });
    const start = live
      ? new Date(now.getTime() - rnd.int(2, 180) * 60_000)
      : new Date(now.getTime() - 3 * 3600_000 - Math.floor(rnd.next() * spanMs));
    // Sessions, heartbeats and statuses agree: a session runs on a connector that existed then and
    // was still heard from after it (a live one on a connector that is online now).
    const fits = usable.filter(
      (c) =>
        c.createdAt! <= start &&
        (live ? c.onlineSince !== null : c.lastHeartbeat !== null && c.lastHeartbeat!.getTime() > start.getTime() + 11 * 3600_000),
    );
    const connector = rnd.pick(fits.length > 0 ? fits : usable);
    let energy = 0;
    let end: Date | null = null;
    if (status === 'finished' || status === 'broken') {
      energy = status === 'finished' ? 3 + rnd.next() * 57 : rnd.next() * 8;
      end = new Date(start.getTime() + rnd.int(20, 600) * 60_000);
    } else if (!live) end = new Date(start.getTime() + rnd.int(1, 5) * 60_000);
    else if (status !== 'processing' && status !== 'accepted' && status !== 'connected') {
      energy = rnd.next() * 20;
    }
    energy = Math.round(energy * 1000) / 1000;
    const tags = contractTags.get(contract.contractKey);
    const useRfid = contract.authType === 'RFID' || (contract.authType === 'APP_AND_RFID' && rnd.chance(0.5));
    const tag = useRfid && tags ? rnd.pick(tags) : undefined;
    requestDrafts.push({
      contractKey: contract.contractKey,
      endCustomerId: contract.endCustomerId,
      customerFullName: `${contract.firstName} ${contract.lastName}`,
      cpoId: contract.cpoId,
      locationId,
      connectorId: connector.connectorId,
      parkingLot: connector.parkingLot ?? null,
      authType: tag ? 'RFID' : 'APP',
      rfidTag: tag?.rfidTag ?? null,
      rfidSerialId: tag?.serialId ?? null,
      chargingType: contract.userType === 'AD_HOC' ? 'AD_HOC' : 'NORMAL',
      status,
      startDate: start,
      endDate: end,
      lastUpdateTimestamp: end ?? new Date(Math.min(now.getTime(), start.getTime() + rnd.int(1, 20) * 60_000)),
      energyKwh: energy.toFixed(3),
    });
  }
  // Transaction ids grow with time, like the ones a backend hands out.
  requestDrafts.sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  const requestRows = requestDrafts.map((r, i) => ({ ...r, transactionId: `TX${String(4_000_000_000 + i)}` }));
  return { requestRows };
}

/**
 * Each request's cost from its contract's tariff history, the block in force on its Berlin start
 * day, by the bills' rule (`requestCostCents`), as the station path costs a session: not from the
 * contract's tariff of today, and in integers (a float product came out a cent low).
 */
export function costRequests(
  requestRows: { contractKey?: string | null; startDate: Date; energyKwh?: string; cost?: string }[],
  tariffRows: readonly (typeof contractTariffs.$inferInsert)[],
) {
  const blocks = new Map<string, TariffBlock[]>();
  for (const t of [...tariffRows].sort((a, b) => (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0))) {
    const list = blocks.get(t.contractKey) ?? [];
    list.push({
      from: t.validFrom,
      fixMonthly: t.fixTariff ?? '0',
      perKwh: t.varTariff ?? '0',
      perRequest: t.fixTariffPerChargingRequest ?? '0',
    });
    blocks.set(t.contractKey, list);
  }
  for (const r of requestRows) {
    const tariffs = r.contractKey ? blocks.get(r.contractKey) : undefined;
    const cents = tariffs ? requestCostCents(tariffs, berlinDate(r.startDate), r.energyKwh ?? '0') : 0n;
    r.cost = centsToNumeric(cents);
  }
}
