import {
  OCCUPIED_STATUSES,
  PARKING_LOT_MAX_LENGTH,
  canAssignParkingLot,
  canChangeAvailability,
  type ChangeAvailabilityBody,
  type ParkingLotUpdateItem,
  type SettableConnectorStatus,
  type StationListRow,
} from '../../../contract/stations';
import type { NewWrite, OutboxWrite } from '../../offline/outbox-write';
import {
  AVAILABILITY_WRITE,
  PARKING_LOT_WRITE,
  stationScope,
  versionFor,
  type AvailabilityWriteData,
  type ParkingLotWriteData,
} from './api/station-writes';

/** What a selected connector needs for the rules (a subset of the list row). */
export type SelectedConnector = Pick<StationListRow, 'connectorId' | 'cpId' | 'locationId' | 'connectorStatus' | 'version'> & {
  address: { parkingLot: string | null };
};

export type ParkingLotGate = { ok: true } | { ok: false; warning: 'noSelection' | 'inactive' };

/** Spec 2 §2/§4: whether the parking-lot modal may open for the selection. */
export function checkParkingLotSelection(selected: readonly SelectedConnector[]): ParkingLotGate {
  if (selected.length === 0) return { ok: false, warning: 'noSelection' };
  if (selected.some((c) => !canAssignParkingLot(c.connectorStatus))) return { ok: false, warning: 'inactive' };
  return { ok: true };
}

export type AvailabilityGate =
  { ok: true } | { ok: false; warning: 'noSelection' } | { ok: false; warning: 'notChangeable' | 'inOperation' | 'both'; cpIds: string[] };

/**
 * Spec 2 §4: a status change is allowed only when every selected connector is IDLE or
 * CONNECTED_UNAVAILABLE with a parking lot. Otherwise 'must be Standby or Active' for the other
 * states, and 'in operation' listing the cpIds of OCCUPIED_* connectors (both when both apply).
 */
export function checkAvailabilitySelection(selected: readonly SelectedConnector[]): AvailabilityGate {
  if (selected.length === 0) return { ok: false, warning: 'noSelection' };
  const blocked = selected.filter((c) => !canChangeAvailability(c.connectorStatus, c.address.parkingLot));
  if (blocked.length === 0) return { ok: true };
  const occupied = blocked.filter((c) => OCCUPIED_STATUSES.includes(c.connectorStatus));
  const other = blocked.length > occupied.length;
  const cpIds = [...new Set(occupied.map((c) => c.cpId))];
  if (occupied.length === 0) return { ok: false, warning: 'notChangeable', cpIds };
  return { ok: false, warning: other ? 'both' : 'inOperation', cpIds };
}

export type ParkingLotError = 'parkingNumreq' | 'maxparkingLot' | 'fildnchange' | 'duplicateInSelection';

/** Spec 2 §5: required, at most 5 characters, must differ from the current value. */
export function validateParkingLot(value: string, current: string | null | undefined): ParkingLotError | undefined {
  const v = value.trim();
  if (!v) return 'parkingNumreq';
  if (v.length > PARKING_LOT_MAX_LENGTH) return 'maxparkingLot';
  if (v === (current ?? '').trim()) return 'fildnchange';
  return undefined;
}

/**
 * The other selected connectors that got the same lot at the same location (a location's lots are
 * unique, so the server would refuse the whole batch), per connector id; only those with a lot.
 */
export function duplicatesInSelection(
  selected: readonly SelectedConnector[],
  values: Readonly<Record<string, string>>,
): Record<string, SelectedConnector[]> {
  const byLot = new Map<string, SelectedConnector[]>();
  for (const c of selected) {
    const lot = (values[c.connectorId] ?? '').trim();
    if (!lot) continue;
    const key = `${c.locationId ?? ''}\u0000${lot}`;
    byLot.set(key, [...(byLot.get(key) ?? []), c]);
  }
  const out: Record<string, SelectedConnector[]> = {};
  for (const group of byLot.values()) {
    if (group.length > 1) for (const c of group) out[c.connectorId] = group.filter((o) => o !== c);
  }
  return out;
}

/** Errors per connector id; empty when every entry is valid. */
export function validateParkingLots(
  selected: readonly SelectedConnector[],
  values: Readonly<Record<string, string>>,
): Record<string, ParkingLotError> {
  const errors: Record<string, ParkingLotError> = {};
  const twice = duplicatesInSelection(selected, values);
  for (const c of selected) {
    const error =
      validateParkingLot(values[c.connectorId] ?? '', c.address.parkingLot) ?? (twice[c.connectorId] ? 'duplicateInSelection' : undefined);
    if (error) errors[c.connectorId] = error;
  }
  return errors;
}

/**
 * The whole selection as one outbox write: PUT /connectors/update-parking-lots with every connector
 * and the version the user saw, applied all or nothing by the server (one transaction) and sent
 * once by its one Idempotency-Key. `writes` (the outbox) decides its scope (`stationScope`).
 */
export function parkingLotWrite(
  selected: readonly SelectedConnector[],
  values: Readonly<Record<string, string>>,
  writes: readonly OutboxWrite[] = [],
): NewWrite<ParkingLotWriteData> {
  const items: ParkingLotUpdateItem[] = selected.map((c) => ({
    connectorId: c.connectorId,
    cpId: c.cpId,
    locationId: c.locationId ?? '',
    parkingLotNumber: (values[c.connectorId] ?? '').trim(),
    version: c.version,
  }));
  const data = items.map((it) => ({
    connectorId: it.connectorId,
    locationId: it.locationId,
    parkingLot: it.parkingLotNumber,
    version: it.version,
  }));
  const first = data[0]!;
  return {
    scope: stationScope(
      items.map((it) => it.connectorId),
      writes,
    ),
    kind: PARKING_LOT_WRITE,
    data: { connectorId: first.connectorId, locationId: first.locationId, parkingLot: first.parkingLot, items: data },
    ...(items.length === 1 && { version: first.version }),
    request: { service: 'bff', path: '/connectors/update-parking-lots', method: 'PUT', body: items },
  };
}

/**
 * The selection with the versions new writes must carry: a connector with writes of this user still
 * queued (or just sent, before the list refetched) is one version further per write by the time the
 * new one is replayed (offline/versioned-writes.ts).
 */
export function withQueuedVersions(selected: readonly SelectedConnector[], writes: readonly OutboxWrite[]): SelectedConnector[] {
  return selected.map((c) => {
    let version = c.version;
    // The same rule as versionToSend, by the connectors a write changes: a batch of lots names several.
    for (const w of writes) {
      const expected = w.state === 'failed' ? undefined : versionFor(w, c.connectorId);
      if (expected !== undefined && version !== undefined) version = Math.max(version, expected + 1);
    }
    return version === c.version ? c : { ...c, version };
  });
}

/** One outbox write per connector: PUT /ocpp-client/change-availability with the version the user saw. */
export function availabilityWrites(
  selected: readonly SelectedConnector[],
  status: SettableConnectorStatus,
  writes: readonly OutboxWrite[] = [],
): NewWrite<AvailabilityWriteData>[] {
  return selected.map((c) => {
    const body: ChangeAvailabilityBody = {
      changeAvailabilityRequest: [{ connectorId: c.connectorId, connectorStatus: status, version: c.version }],
    };
    return {
      scope: stationScope([c.connectorId], writes),
      kind: AVAILABILITY_WRITE,
      data: { connectorId: c.connectorId, locationId: c.locationId ?? '', status },
      version: c.version,
      request: { service: 'bff', path: '/ocpp-client/change-availability', method: 'PUT', body },
    };
  });
}
