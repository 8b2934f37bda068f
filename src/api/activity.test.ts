import { describe, expect, it } from 'vitest';
import { trackWrite, writesInFlight } from './activity';

describe('write activity', () => {
  it('counts writes while they run, also when they fail', async () => {
    let release!: () => void;
    const running = trackWrite(() => new Promise<void>((r) => (release = r)));
    expect(writesInFlight()).toBe(1);
    release();
    await running;
    expect(writesInFlight()).toBe(0);
    await expect(trackWrite(() => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(writesInFlight()).toBe(0);
  });
});
