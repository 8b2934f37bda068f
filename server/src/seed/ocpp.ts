import type { connectors } from '../db/schema/stations';
import type { ocppStations } from '../db/schema/ocpp';

/**
 * The password every demo station connects with over OCPP (HTTP Basic, security profile 1), so a
 * real charge point or another simulator can be pointed at the demo (README). Documented, hence not
 * a secret; the admin sets a station's own password on its detail page.
 */
export const demoStationPassword = 'Station-Demo-2026';

/**
 * One OCPP row per seeded station, all with the demo password's one hash: hashing it per station
 * would cost the seed one scrypt per station for a password everyone knows anyway. Draws nothing
 * from the random stream, so the rest of the data set stays the same.
 */
export function drawOcppStations(
  connectorRows: (typeof connectors.$inferInsert)[],
  passwordHash: string,
  now: Date,
): (typeof ocppStations.$inferInsert)[] {
  const cpIds = [...new Set(connectorRows.map((c) => c.cpId))];
  return cpIds.map((cpId) => ({ cpId, passwordHash, passwordSetAt: now }));
}
