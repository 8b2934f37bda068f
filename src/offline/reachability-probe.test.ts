import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isServerAnswering, reportAnswer, reportNoAnswer } from './online-status';
import { PROBE_IDLE_MS, PROBE_WRITES_WAITING_MS, startReachabilityProbe } from './reachability-probe';

let stop: () => void = () => {};

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => true);
});

afterEach(() => {
  stop();
  reportAnswer();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('reachability probe', () => {
  it('asks nothing while the server answers', async () => {
    const probe = vi.fn(async () => undefined);
    stop = startReachabilityProbe({ probe, writesWaiting: () => true });
    await vi.advanceTimersByTimeAsync(60_000);
    window.dispatchEvent(new Event('focus'));
    expect(probe).not.toHaveBeenCalled();
  });

  it('asks on a short interval while writes wait, until the first answer', async () => {
    let serverBack = false;
    const probe = vi.fn(async () => (serverBack ? reportAnswer() : reportNoAnswer()));
    stop = startReachabilityProbe({ probe, writesWaiting: () => true });
    reportNoAnswer();
    await vi.advanceTimersByTimeAsync(PROBE_WRITES_WAITING_MS);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PROBE_WRITES_WAITING_MS);
    expect(probe).toHaveBeenCalledTimes(2);
    serverBack = true;
    await vi.advanceTimersByTimeAsync(PROBE_WRITES_WAITING_MS);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(isServerAnswering()).toBe(true);
    await vi.advanceTimersByTimeAsync(PROBE_IDLE_MS * 3);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('asks less often without waiting writes, and at once on focus or when the page becomes visible', async () => {
    const probe = vi.fn(async () => reportNoAnswer());
    stop = startReachabilityProbe({ probe, writesWaiting: () => false });
    reportNoAnswer();
    await vi.advanceTimersByTimeAsync(PROBE_WRITES_WAITING_MS);
    expect(probe).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probe).toHaveBeenCalledTimes(1);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probe).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(PROBE_IDLE_MS);
    expect(probe).toHaveBeenCalledTimes(3);
  });

  it('a write saved while it waits the longer interval brings the next probe forward', async () => {
    let waiting = false;
    const listeners = new Set<() => void>();
    const probe = vi.fn(async () => reportNoAnswer());
    stop = startReachabilityProbe({
      probe,
      writesWaiting: () => waiting,
      subscribeWrites: (l) => (listeners.add(l), () => listeners.delete(l)),
    });
    reportNoAnswer();
    await vi.advanceTimersByTimeAsync(1_000);
    waiting = true;
    listeners.forEach((l) => l());
    await vi.advanceTimersByTimeAsync(PROBE_WRITES_WAITING_MS);
    expect(probe).toHaveBeenCalledTimes(1);
  });
});
