/**
 * What one station socket may make the server do: a token bucket of frames (`perSecond`
 * sustained, `burst` at once: a boot, a transaction's end, a replay after an outage pass) and at
 * most `inFlight` handlers running at once, the others queued in order (OCPP 1.6J §4.1.1 wants one
 * call at a time; a few are allowed). A frame without a token, or with the queue full, is refused;
 * `refused` counts refusals since the bucket was last full again (the station calmed down).
 */
export interface FrameGate {
  /** True: the frame may run. False: refuse it (counted). */
  take: () => boolean;
  /** Refusals since the bucket was last full. */
  refused: () => number;
  /** Runs an admitted frame's work once fewer than `inFlight` run. */
  run: <T>(work: () => Promise<T>) => Promise<T>;
}

export function frameGate(opts: { perSecond: number; burst: number; inFlight: number; now?: () => number }): FrameGate {
  const now = opts.now ?? (() => performance.now());
  let tokens = opts.burst;
  let at = now();
  let refused = 0;
  let running = 0;
  const queue: (() => void)[] = [];

  const refill = () => {
    const t = now();
    tokens = Math.min(opts.burst, tokens + ((t - at) / 1000) * opts.perSecond);
    at = t;
    if (tokens >= opts.burst) refused = 0;
  };

  return {
    take: () => {
      refill();
      if (tokens >= 1 && queue.length < opts.burst) {
        tokens -= 1;
        return true;
      }
      refused++;
      return false;
    },
    refused: () => refused,
    run: async (work) => {
      // A finished frame hands its slot straight to the next one, so `running` never exceeds inFlight.
      if (running >= opts.inFlight) await new Promise<void>((resolve) => queue.push(resolve));
      else running++;
      try {
        return await work();
      } finally {
        const next = queue.shift();
        if (next) next();
        else running--;
      }
    },
  };
}
