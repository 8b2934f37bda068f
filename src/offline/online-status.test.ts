import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { wireOnlineManager } from './online-manager';
import { connection, isOnline, isServerAnswering, reportAnswer, reportNoAnswer, useConnection, useOnlineStatus } from './online-status';

afterEach(() => vi.restoreAllMocks());

describe('online status', () => {
  it('follows navigator.onLine and the online/offline events, and feeds TanStack', () => {
    let online = true;
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
    wireOnlineManager();
    const { result } = renderHook(() => useOnlineStatus());
    expect(result.current).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);

    online = false;
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(result.current).toBe(false);
    expect(onlineManager.isOnline()).toBe(false);

    online = true;
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(result.current).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);
  });
});

describe('reachability (lie-fi)', () => {
  afterEach(() => reportAnswer());

  it('a request without an answer makes the app offline while the browser says online, until the next answer', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => true);
    wireOnlineManager();
    const { result } = renderHook(() => useConnection());
    expect(result.current).toBe('online');

    act(() => reportNoAnswer());
    expect(result.current).toBe('unreachable');
    expect(isOnline()).toBe(false);
    expect(isServerAnswering()).toBe(false);
    // TanStack pauses reads instead of failing them (and so never marks kept data as failed).
    expect(onlineManager.isOnline()).toBe(false);

    act(() => reportAnswer());
    expect(result.current).toBe('online');
    expect(onlineManager.isOnline()).toBe(true);
  });

  it('says offline, not unreachable, when the browser knows it is offline', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => false);
    reportNoAnswer();
    expect(connection()).toBe('offline');
  });
});
