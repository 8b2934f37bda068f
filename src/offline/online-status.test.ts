import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { wireOnlineManager } from './online-manager';
import { useOnlineStatus } from './online-status';

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
