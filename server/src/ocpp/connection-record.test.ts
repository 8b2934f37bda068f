import { describe, expect, it } from 'vitest';
import { connectionRecord } from './connection-record';

/**
 * ocpp_stations.connected_instance as the SQL of setConnectedInstance writes it: a set takes the
 * station, a clear only empties it while it still names this instance. The first write is made to
 * commit later than the second, as a busy pool may.
 */
function fakeStore(delays: number[]) {
  let connectedInstance: string | null = null;
  let call = 0;
  const write = async (_cpId: string, connected: boolean) => {
    const delay = delays[call++] ?? 0;
    await new Promise((r) => setTimeout(r, delay));
    if (connected) connectedInstance = 'this-instance';
    else if (connectedInstance === 'this-instance') connectedInstance = null;
  };
  return { write, value: () => connectedInstance };
}

describe('connectionRecord', () => {
  it('keeps a rebooted station connected when the old socket’s clear is slower than the new socket’s set', async () => {
    const store = fakeStore([0, 40, 0]);
    const sockets = new Set<string>();
    const record = connectionRecord({ write: store.write, holds: (cpId) => sockets.has(cpId) });
    sockets.add('CP1');
    record.record('CP1', true);
    await record.settled();
    // Reboot: the old socket goes (its clear takes 40 ms), the new one comes 10 ms later.
    sockets.delete('CP1');
    record.record('CP1', false);
    await new Promise((r) => setTimeout(r, 10));
    sockets.add('CP1');
    record.record('CP1', true);
    await record.settled();
    // Past every write's delay, whatever settled() waited for.
    await new Promise((r) => setTimeout(r, 60));
    expect(store.value()).toBe('this-instance');
  });

  it('clears a station whose socket is gone for good, after its earlier writes', async () => {
    const store = fakeStore([30, 0]);
    const sockets = new Set<string>(['CP1']);
    const record = connectionRecord({ write: store.write, holds: (cpId) => sockets.has(cpId) });
    record.record('CP1', true);
    sockets.delete('CP1');
    record.record('CP1', false);
    await record.settled();
    expect(store.value()).toBeNull();
  });

  it('goes on after a failed write', async () => {
    let calls = 0;
    const record = connectionRecord({
      write: async () => {
        if (calls++ === 0) throw new Error('connection lost');
      },
      holds: () => true,
    });
    record.record('CP1', true);
    record.record('CP1', true);
    await record.settled();
    expect(calls).toBe(2);
  });
});
