import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import {
  MIN_UPDATE_CHECK_GAP_MS,
  UPDATE_CHECK_INTERVAL_MS,
  attachUpdateFlow,
  registerServiceWorker,
  useServiceWorkerUpdate,
  type WorkboxLike,
} from './sw-register';

type Listener = (event: { isUpdate?: boolean; isExternal?: boolean }) => void;

function fakeWorkbox() {
  const listeners = new Map<string, Listener[]>();
  const wb = {
    addEventListener: (type: string, l: Listener) => listeners.set(type, [...(listeners.get(type) ?? []), l]),
    messageSkipWaiting: vi.fn(),
    update: vi.fn(() => Promise.resolve()),
  } satisfies WorkboxLike;
  const emit = (type: string, event = {}) => act(() => listeners.get(type)?.forEach((l) => l(event)));
  return { wb, emit };
}

let detach: () => void = () => {};

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  detach();
  vi.useRealTimers();
});

describe('service worker update flow', () => {
  it('offers the update when a new worker waits and applies it on request, reloading once', () => {
    const { wb, emit } = fakeWorkbox();
    const reload = vi.fn();
    detach = attachUpdateFlow(wb, { reload });
    const { result } = renderHook(() => useServiceWorkerUpdate());
    expect(result.current.needRefresh).toBe(false);

    emit('waiting', { isUpdate: true });
    expect(result.current.needRefresh).toBe(true);
    // Offered, not forced.
    expect(wb.messageSkipWaiting).not.toHaveBeenCalled();
    expect(reload).not.toHaveBeenCalled();

    act(() => result.current.update());
    expect(wb.messageSkipWaiting).toHaveBeenCalledOnce();
    expect(reload).not.toHaveBeenCalled();

    emit('controlling', { isUpdate: true });
    emit('controlling', { isUpdate: true });
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not reload when the very first worker takes control', () => {
    const { wb, emit } = fakeWorkbox();
    const reload = vi.fn();
    detach = attachUpdateFlow(wb, { reload });
    const { result } = renderHook(() => useServiceWorkerUpdate());
    emit('controlling', { isUpdate: false, isExternal: false });
    expect(reload).not.toHaveBeenCalled();
    expect(result.current.needRefresh).toBe(false);
  });

  it('offers no update when the first worker, installed during a reload, takes control as "external"', () => {
    const { wb, emit } = fakeWorkbox();
    detach = attachUpdateFlow(wb, { reload: vi.fn(), hadController: false });
    const { result } = renderHook(() => useServiceWorkerUpdate());
    emit('controlling', { isUpdate: false, isExternal: true });
    expect(result.current.needRefresh).toBe(false);
  });

  it('offers the reload when another tab applied an update to a page that ran the old worker', () => {
    const { wb, emit } = fakeWorkbox();
    detach = attachUpdateFlow(wb, { reload: vi.fn(), hadController: true });
    const { result } = renderHook(() => useServiceWorkerUpdate());
    emit('controlling', { isUpdate: true, isExternal: true });
    expect(result.current.needRefresh).toBe(true);
  });

  it('checks for updates hourly and when the tab becomes visible again', () => {
    const { wb } = fakeWorkbox();
    let now = 0;
    detach = attachUpdateFlow(wb, { reload: vi.fn(), now: () => now, isOnline: () => true });

    now = UPDATE_CHECK_INTERVAL_MS;
    vi.advanceTimersByTime(UPDATE_CHECK_INTERVAL_MS);
    expect(wb.update).toHaveBeenCalledTimes(1);

    now = UPDATE_CHECK_INTERVAL_MS + 1_000;
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wb.update).toHaveBeenCalledTimes(1);

    now = UPDATE_CHECK_INTERVAL_MS + MIN_UPDATE_CHECK_GAP_MS;
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wb.update).toHaveBeenCalledTimes(1);
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(wb.update).toHaveBeenCalledTimes(2);
  });

  it('skips checks while offline', () => {
    const { wb } = fakeWorkbox();
    detach = attachUpdateFlow(wb, { reload: vi.fn(), isOnline: () => false });
    vi.advanceTimersByTime(UPDATE_CHECK_INTERVAL_MS * 3);
    expect(wb.update).not.toHaveBeenCalled();
  });

  it('does not register in development or test builds', async () => {
    const register = vi.fn();
    Object.defineProperty(navigator, 'serviceWorker', { value: { register }, configurable: true });
    await registerServiceWorker();
    expect(register).not.toHaveBeenCalled();
  });
});
