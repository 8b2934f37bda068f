import { describe, expect, it, vi } from 'vitest';
import { requestPersistentStorage, storagePersistence } from './storage-persistence';

const manager = (persisted: boolean, grant: boolean) =>
  ({ persisted: vi.fn(async () => persisted), persist: vi.fn(async () => grant) }) as unknown as StorageManager;

describe('persistent storage', () => {
  it('asks only when not yet granted, and says what the browser answered', async () => {
    const granted = manager(true, true);
    expect(await requestPersistentStorage(granted)).toBe('persistent');
    expect(granted.persist).not.toHaveBeenCalled();
    const asked = manager(false, true);
    expect(await requestPersistentStorage(asked)).toBe('persistent');
    expect(asked.persist).toHaveBeenCalledTimes(1);
    expect(await requestPersistentStorage(manager(false, false))).toBe('best-effort');
    expect(await requestPersistentStorage(undefined)).toBe('unsupported');
  });

  it('reads the state without asking', async () => {
    const m = manager(false, true);
    expect(await storagePersistence(m)).toBe('best-effort');
    expect(m.persist).not.toHaveBeenCalled();
  });
});
