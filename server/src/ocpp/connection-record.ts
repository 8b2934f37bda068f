/**
 * ocpp_stations.connected_instance, written in the order the sockets came and went. After a reboot
 * the old socket's 'clear' and the new socket's 'set' are queued within milliseconds; fired side by
 * side they could commit in either order and leave a connected station recorded as not connected
 * (and a status change would then skip its ChangeAvailability). Here each station's writes run one
 * after the other, and a clear whose station has a socket on this instance again by then is skipped.
 */
export interface ConnectionRecord {
  /** Queues the write for this station after its earlier ones. */
  record: (cpId: string, connected: boolean) => void;
  /** Resolves once every queued write has run (closing, tests). */
  settled: () => Promise<void>;
}

export function connectionRecord(deps: {
  write: (cpId: string, connected: boolean) => Promise<void>;
  /** Whether this instance holds a socket of the station right now. */
  holds: (cpId: string) => boolean;
  log?: (m: string) => void;
}): ConnectionRecord {
  const chains = new Map<string, Promise<void>>();
  return {
    record: (cpId, connected) => {
      const before = chains.get(cpId) ?? Promise.resolve();
      const next = before
        .then(() => (connected || !deps.holds(cpId) ? deps.write(cpId, connected) : undefined))
        .catch((err: unknown) =>
          deps.log?.(`ocpp: connected_instance of a station not written (${err instanceof Error ? err.name : typeof err})`),
        );
      chains.set(cpId, next);
      void next.then(() => {
        if (chains.get(cpId) === next) chains.delete(cpId);
      });
    },
    settled: async () => {
      while (chains.size > 0) await Promise.all([...chains.values()]);
    },
  };
}
