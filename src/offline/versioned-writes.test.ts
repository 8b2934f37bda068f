import { describe, expect, it } from 'vitest';
import type { OutboxState, OutboxWrite } from './outbox-write';
import { storedWrite } from './test-writes';
import { versionToSend } from './versioned-writes';

const write = (scope: string, version: number | undefined, state: OutboxState = 'pending'): OutboxWrite =>
  storedWrite(
    {
      scope,
      kind: 'any.kind',
      data: {},
      ...(version !== undefined && { version }),
      request: { service: 'bff', path: '/x', method: 'PUT' },
    },
    { state },
  );

describe('versionToSend', () => {
  it('is the version the user saw while nothing of the entity waits', () => {
    expect(versionToSend(4, 'e:1', [])).toBe(4);
    expect(versionToSend(4, 'e:1', [write('e:2', 9)])).toBe(4);
  });

  it('is one more than the newest version a queued, sending or just applied write of the scope expects', () => {
    expect(versionToSend(4, 'e:1', [write('e:1', 4)])).toBe(5);
    expect(versionToSend(4, 'e:1', [write('e:1', 4, 'done'), write('e:1', 5, 'sending')])).toBe(6);
    // The screen already shows the version after them: nothing is added twice.
    expect(versionToSend(6, 'e:1', [write('e:1', 4, 'done'), write('e:1', 5)])).toBe(6);
  });

  it('leaves out refused writes and writes that carry no version', () => {
    expect(versionToSend(4, 'e:1', [write('e:1', 4, 'failed')])).toBe(4);
    expect(versionToSend(4, 'e:1', [write('e:1', undefined)])).toBe(4);
  });

  it('keeps an entity without a version without one', () => {
    expect(versionToSend(undefined, 'e:1', [write('e:1', 4)])).toBeUndefined();
  });
});
