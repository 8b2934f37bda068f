import { useEffect, useState } from 'react';

/**
 * Persistent storage: without it the browser may evict IndexedDB under storage pressure, and with
 * it the writes still waiting in the outbox. Asked for once signed in (query-runtime.tsx); the
 * settings page shows the answer.
 */
export type StoragePersistence = 'persistent' | 'best-effort' | 'unsupported';

export async function requestPersistentStorage(
  storage: StorageManager | undefined = globalThis.navigator?.storage,
): Promise<StoragePersistence> {
  if (!storage?.persist || !storage.persisted) return 'unsupported';
  try {
    if (await storage.persisted()) return 'persistent';
    return (await storage.persist()) ? 'persistent' : 'best-effort';
  } catch {
    return 'best-effort';
  }
}

export async function storagePersistence(storage: StorageManager | undefined = globalThis.navigator?.storage): Promise<StoragePersistence> {
  if (!storage?.persisted) return 'unsupported';
  try {
    return (await storage.persisted()) ? 'persistent' : 'best-effort';
  } catch {
    return 'best-effort';
  }
}

/** The current answer; null while it is being read. */
export function useStoragePersistence(): StoragePersistence | null {
  const [state, setState] = useState<StoragePersistence | null>(null);
  useEffect(() => {
    let live = true;
    void storagePersistence().then((s) => live && setState(s));
    return () => {
      live = false;
    };
  }, []);
  return state;
}
