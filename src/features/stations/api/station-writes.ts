import { connectorConflictDetailSchema, connectorDisplayStatus, type SettableConnectorStatus } from '../../../../contract/stations';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxError, OutboxWrite } from '../../../offline/outbox-write';
import { registerWriteKind } from '../../../offline/write-kinds';
import { connectorStatusMessageId } from '../../../shared/connector-status';
import { locationDetailQueryOptions } from '../../locations/api/location-queries';
import { stationDetailQueryOptions } from './station-queries';
import { stationKeys } from './station-keys';

/**
 * The stations area's outbox writes. Registered at start-up (src/write-kinds.ts), so a write
 * replayed after a reload on any screen refreshes what it changed: the station lists (also a
 * location's stations tab), the connector's detail and its location's counts.
 */

interface ConnectorWriteData {
  connectorId: string;
  locationId: string;
}
export interface ParkingLotItemData extends ConnectorWriteData {
  parkingLot: string;
  /** The connector's version the user saw (a batch carries one per connector). */
  version?: number;
}
/**
 * One parking-lot write for the whole selection: applied all or nothing (one request, one
 * transaction on the server). The first connector's fields stay on top, as writes stored before
 * batches have them; `items` names every connector (missing on those older writes).
 */
export interface ParkingLotWriteData extends ConnectorWriteData {
  parkingLot: string;
  items?: ParkingLotItemData[];
}
export interface AvailabilityWriteData extends ConnectorWriteData {
  status: SettableConnectorStatus;
}

export const PARKING_LOT_WRITE = 'station.parking-lot';
export const AVAILABILITY_WRITE = 'station.availability';

/** The connectors a parking-lot write sets, with their lots. */
export const lotItemsOf = (d: ParkingLotWriteData): ParkingLotItemData[] =>
  d.items ?? [{ connectorId: d.connectorId, locationId: d.locationId, parkingLot: d.parkingLot }];

const STATION_KINDS: readonly string[] = [PARKING_LOT_WRITE, AVAILABILITY_WRITE];

/** The connectors a stored station write changes (none for other areas' writes). */
export function connectorsOf(w: Pick<OutboxWrite, 'kind' | 'data'>): string[] {
  if (!STATION_KINDS.includes(w.kind) || !w.data) return [];
  if (w.kind === PARKING_LOT_WRITE) return lotItemsOf(w.data as ParkingLotWriteData).map((it) => it.connectorId);
  return [(w.data as ConnectorWriteData).connectorId];
}

/** The version a stored station write expects for one of its connectors. */
export function versionFor(w: Pick<OutboxWrite, 'kind' | 'data' | 'version'>, connectorId: string): number | undefined {
  const items = w.kind === PARKING_LOT_WRITE ? (w.data as ParkingLotWriteData).items : undefined;
  if (items) return items.find((it) => it.connectorId === connectorId)?.version;
  return connectorsOf(w).includes(connectorId) ? w.version : undefined;
}

/**
 * The outbox scope of a new station write: the scope of the first open write that changes one of
 * its connectors, so a status change made after a batch of lots goes after it (and is held back
 * when the batch is refused); otherwise its first connector. A batch touching connectors held in
 * two different scopes joins the first; the server's versions refuse (409) rather than reorder.
 */
export function stationScope(connectorIds: readonly string[], writes: readonly OutboxWrite[]): string {
  const open = writes.find((w) => w.state !== 'done' && connectorsOf(w).some((id) => connectorIds.includes(id)));
  return open?.scope ?? connectorIds[0] ?? '';
}

const refreshes = ({ connectorId, locationId }: ConnectorWriteData) => [
  stationKeys.lists(),
  stationDetailQueryOptions(connectorId),
  ...(locationId ? [locationDetailQueryOptions(locationId)] : []),
];

/** The station's page with the form open and what the user entered (`routes/_app/stationen/$stationId.tsx`). */
const stationPath = (connectorId: string, search: Record<string, string>) =>
  `/stationen/${encodeURIComponent(connectorId)}?${new URLSearchParams(search).toString()}`;

const listOf = (detail: unknown, key: string): string[] => {
  const value = (detail as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(value) ? value.map(String) : [];
};

/**
 * A refusal in the station screens' words: what a colleague changed meanwhile (409 CONFLICT), or
 * the rule that refused it by its code, never the server's English text.
 */
function describeConflict(error: OutboxError, t: TranslateFn): string | null {
  switch (error.code) {
    case 'DATA_INCONSISTENCY': {
      const lots = Array.isArray(error.detail) ? error.detail.map((d: { parkingLot?: unknown }) => String(d.parkingLot ?? '')) : [];
      return t('dataRules.lotTaken', { lots: [...new Set(lots)].join(', ') });
    }
    case 'CONNECTOR_INACTIVE':
      return t('dataRules.connectorInactive', { cpIds: listOf(error.detail, 'cpIds').join(', ') });
    case 'CONNECTOR_STATUS_NOT_CHANGEABLE':
      return t('dataRules.statusNotChangeable', { cpIds: listOf(error.detail, 'cpIds').join(', ') });
    case 'CONNECTOR_IN_OPERATION':
      return t('dataRules.inOperation', { cpIds: listOf(error.detail, 'cpIds').join(', ') });
  }
  const parsed = connectorConflictDetailSchema.safeParse(error.detail);
  if (!parsed.success) return null;
  const { current, currentVersion } = parsed.data;
  return t('stations.writes.conflict', {
    parkingLot: current.parkingLot || '–',
    status: t(connectorStatusMessageId(connectorDisplayStatus(current.connectorStatus, current.parkingLot))),
    version: String(currentVersion),
  });
}

export function registerStationWrites(): void {
  registerWriteKind<ParkingLotWriteData>({
    kind: PARKING_LOT_WRITE,
    name: (t) => t('stations.writes.parkingLot'),
    label: (d, t) => {
      const items = lotItemsOf(d);
      if (items.length === 1) return t('stations.parkingLot.outboxLabel', { lot: d.parkingLot, connectorId: d.connectorId });
      return t('dataRules.batchLabel', { list: items.map((it) => `${it.connectorId} → ${it.parkingLot}`).join(', ') });
    },
    refreshes: (d) => {
      const items = lotItemsOf(d);
      return [
        stationKeys.lists(),
        ...items.map((it) => stationDetailQueryOptions(it.connectorId)),
        ...[...new Set(items.map((it) => it.locationId).filter(Boolean))].map((id) => locationDetailQueryOptions(id)),
      ];
    },
    // A batch is made again from the list it was chosen in; one connector on its own page.
    formPath: (d) => (lotItemsOf(d).length === 1 ? stationPath(d.connectorId, { edit: 'parking-lot', lot: d.parkingLot }) : '/stationen'),
    describeFailure: describeConflict,
    sets: (d) => ({ parkingLot: d.parkingLot }),
  });
  registerWriteKind<AvailabilityWriteData>({
    kind: AVAILABILITY_WRITE,
    name: (t) => t('stations.writes.availability'),
    label: (d, t) => t('stations.availability.outboxLabel', { status: t(connectorStatusMessageId(d.status)), connectorId: d.connectorId }),
    refreshes,
    formPath: (d) => stationPath(d.connectorId, { edit: 'availability', status: d.status }),
    describeFailure: describeConflict,
    sets: (d) => ({ connectorStatus: d.status }),
  });
}
