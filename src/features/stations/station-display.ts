import type { ConnectorStatus } from '../../../contract/enums';
import { connectorDisplayStatus, connectorStatusColours } from '../../../contract/stations';
import { formatDateTime, toDate, type DateInput } from '../../i18n/format';
import { relativeAge, type AgeUnit } from '../../offline/data-age';
import { connectorStatusMessageId } from '../../shared/connector-status';

export { relativeAge };

/** The connector id as shown: the part after the last underscore ('CP-0001_2' → '2'). */
export function displayConnectorId(connectorId: string): string {
  const i = connectorId.lastIndexOf('_');
  return i >= 0 && i < connectorId.length - 1 ? connectorId.slice(i + 1) : connectorId;
}

/**
 * Message id of the status wording (spec 2 §3): IDLE reads 'Aktiv', CONNECTED_UNAVAILABLE reads
 * 'Standby' with a parking lot and 'Verknüpft (Parkplatz hinterlegen)' without one.
 */
export function statusMessageId(status: ConnectorStatus, parkingLot: string | null | undefined) {
  return connectorStatusMessageId(connectorDisplayStatus(status, parkingLot));
}

/** Colour of the display status; the server's mapping wins when it sends a usable hex code. */
export function statusColour(status: ConnectorStatus, parkingLot: string | null | undefined, served?: string | null): string {
  if (served && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(served)) return served;
  return connectorStatusColours[connectorDisplayStatus(status, parkingLot)];
}

/** Last heartbeat: none on record, or the moment (dd.MM.yyyy HH:mm) plus how long ago it was. */
export type HeartbeatDisplay = { kind: 'none' } | { kind: 'at'; dateTime: string; value: number; unit: AgeUnit };

export function heartbeatDisplay(lastHeartBeat: DateInput, now: number): HeartbeatDisplay {
  const d = toDate(lastHeartBeat);
  if (!d) return { kind: 'none' };
  return { kind: 'at', dateTime: formatDateTime(d), ...relativeAge(now - d.getTime()) };
}
