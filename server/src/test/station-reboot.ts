import type { CentralSystem } from '../ocpp/central-system';
import type { SimulatedStation } from '../ocpp/simulator/simulated-station';

/**
 * The wait for a simulated station's reboot, armed BEFORE the reset is asked: it resolves once the
 * station booted over a socket opened after arming (a BootNotification sent on request over the
 * old socket does not count) and the central system holds a socket of the station it accepted
 * after arming. A booted_at newer than before proves neither: a triggered boot also moves it.
 */
export function armReboot(central: CentralSystem, station: SimulatedStation, ms = 8000): () => Promise<void> {
  const epoch = central.connectionEpoch(station.cpId);
  const booted = station.nextBoot();
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${station.cpId} did not boot over a new socket within ${ms} ms`)), ms);
    });
    try {
      await Promise.race([booted, late]);
      const end = Date.now() + ms;
      while (!(central.connectionEpoch(station.cpId) > epoch && central.isConnected(station.cpId))) {
        if (Date.now() > end) throw new Error(`${station.cpId}: no new socket on the central system within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      clearTimeout(timer);
    }
  };
}
