import { defaultTiming, SimulatedStation, type SimulationTiming, type StationPlan } from './simulated-station';

export interface Simulation {
  stations: SimulatedStation[];
  /** How many connected at the start (a refused or unreachable one is not retried). */
  connected: number;
  stop: () => Promise<void>;
}

/**
 * Starts simulated stations against a central system (`ws://host:port/ocpp`), a few at a time: a
 * handshake counts against the client address's connection cap until the station is accepted.
 */
export async function startSimulation(opts: {
  endpoint: string;
  password: string;
  plans: StationPlan[];
  timing?: SimulationTiming;
  /** Connections opened at once. */
  batch?: number;
  log?: (m: string) => void;
}): Promise<Simulation> {
  const stations = opts.plans.map((p) => new SimulatedStation(p, opts.endpoint, opts.password, opts.timing ?? defaultTiming, opts.log));
  const batch = opts.batch ?? 20;
  let failed = 0;
  for (let i = 0; i < stations.length; i += batch) {
    const results = await Promise.allSettled(stations.slice(i, i + batch).map((s) => s.start()));
    failed += results.filter((r) => r.status === 'rejected').length;
  }
  if (failed > 0) opts.log?.(`simulator: ${failed} of ${stations.length} stations could not connect`);
  return {
    stations,
    connected: stations.length - failed,
    stop: async () => {
      await Promise.all(stations.map((s) => s.stop()));
    },
  };
}
