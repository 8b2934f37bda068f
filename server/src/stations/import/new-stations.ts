import type { connectors } from '../../db/schema/stations';

/** A station to be created: by the form wizard (`createStations`) or by the file import. */
export interface NewStation {
  cpId: string;
  cpoId: string;
  locationId: string | null;
  wallboxModel: string;
  connectorCount: number;
  /** Connector n's parking lot at index n − 1; missing or null: none yet. */
  parkingLots?: (string | null)[];
}

/**
 * The connector rows of new stations, the one place both ways of creating stations make them:
 * `<cpId>_1` … `<cpId>_n`, INACTIVE until the station reports in. When stations get their OCPP
 * password (issue 27), it is made here, so the wizard and the import hand it out the same way.
 */
export function newStationRows(stations: NewStation[]): (typeof connectors.$inferInsert)[] {
  return stations.flatMap((s) =>
    Array.from({ length: s.connectorCount }, (_, k) => ({
      connectorId: `${s.cpId}_${k + 1}`,
      cpId: s.cpId,
      connectorNumber: k + 1,
      cpoId: s.cpoId,
      locationId: s.locationId,
      parkingLot: s.parkingLots?.[k] || null,
      wallboxModel: s.wallboxModel,
      status: 'INACTIVE' as const,
    })),
  );
}
