import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { frameGate } from './frame-gate';
import { createLiveHub } from './live';

describe('frameGate', () => {
  it('passes a burst, then the sustained rate, and forgets refusals once the bucket is full again', () => {
    let now = 0;
    const gate = frameGate({ perSecond: 2, burst: 5, inFlight: 1, now: () => now });
    expect(Array.from({ length: 7 }, () => gate.take())).toEqual([true, true, true, true, true, false, false]);
    expect(gate.refused()).toBe(2);
    now += 500;
    expect([gate.take(), gate.take()]).toEqual([true, false]);
    now += 10_000;
    expect(gate.take()).toBe(true);
    expect(gate.refused()).toBe(0);
  });

  it('runs at most inFlight frames at once, the others in order', async () => {
    const gate = frameGate({ perSecond: 100, burst: 100, inFlight: 2 });
    let running = 0;
    let most = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        gate.run(async () => {
          running++;
          most = Math.max(most, running);
          await new Promise((r) => setTimeout(r, 5));
          order.push(i);
          running--;
        }),
      ),
    );
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('caught faults in ocpp/', () => {
  it('a failed live-status publish is logged once with its kind, not dropped', async () => {
    const logged: string[] = [];
    const failing = {
      select: () => {
        throw new TypeError('connection lost');
      },
    } as unknown as Db;
    const live = createLiveHub(
      failing,
      () => {},
      (m) => logged.push(m),
    );
    live.changed('CP-FAULT');
    await new Promise((r) => setTimeout(r, 400));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/^ocpp live: station changes not published: TypeError/);
  });
});
