import { connectorConflictDetailSchema, connectorDisplayStatus, type SettableConnectorStatus } from '../../../../contract/stations';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxError } from '../../../offline/outbox-write';
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
export interface ParkingLotWriteData extends ConnectorWriteData {
  parkingLot: string;
}
export interface AvailabilityWriteData extends ConnectorWriteData {
  status: SettableConnectorStatus;
}

export const PARKING_LOT_WRITE = 'station.parking-lot';
export const AVAILABILITY_WRITE = 'station.availability';

const refreshes = ({ connectorId, locationId }: ConnectorWriteData) => [
  stationKeys.lists(),
  stationDetailQueryOptions(connectorId),
  ...(locationId ? [locationDetailQueryOptions(locationId)] : []),
];

/** The station's page with the form open and what the user entered (`routes/_app/stationen/$stationId.tsx`). */
const stationPath = (connectorId: string, search: Record<string, string>) =>
  `/stationen/${encodeURIComponent(connectorId)}?${new URLSearchParams(search).toString()}`;

/** A colleague changed the connector meanwhile: what it looks like now, in the station screens' words. */
function describeConflict(error: OutboxError, t: TranslateFn): string | null {
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
    label: (d, t) => t('stations.parkingLot.outboxLabel', { lot: d.parkingLot, connectorId: d.connectorId }),
    refreshes,
    formPath: (d) => stationPath(d.connectorId, { edit: 'parking-lot', lot: d.parkingLot }),
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
