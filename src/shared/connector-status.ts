import type { ConnectorDisplayStatus } from '../../contract/stations';

/**
 * Message id of a connector status's wording (spec 2 §3), one set for every screen: IDLE reads
 * 'Aktiv', CONNECTED_UNAVAILABLE 'Standby' with a parking lot and 'Verknüpft (Parkplatz
 * hinterlegen)' without one (the display status, see contract/stations.ts).
 */
export const connectorStatusMessageId = (status: ConnectorDisplayStatus): `connectorStatus.${ConnectorDisplayStatus}` =>
  `connectorStatus.${status}`;

/** The same for contract statuses (the location's users, later the users area). */
export const contractStatusMessageId = (status: string) => `contractStatus.${status}`;
