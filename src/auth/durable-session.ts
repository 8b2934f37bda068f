/** The token pair as the device keeps it (token-store.ts is its one reader and writer). */
export interface StoredTokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * The session's durable copy. localStorage (the spec's keys, read synchronously everywhere) is
 * written to disk lazily by the browser, so a tablet that kills the browser in the background
 * seconds after sign-in loses it. IndexedDB has committed when its transaction completes: sign-in
 * and every token refresh count as done only then, and a start finds the session here when
 * localStorage lost it. Plain IndexedDB, no library: this runs before the first screen.
 */
const DB = 'cpo-cockpit-session';
const STORE = 'tokens';
const KEY = 'pair';

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode: IDBTransactionMode, fn: (store: IDBObjectStore) => IDBRequest): Promise<unknown> {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const request = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(request.result);
      tx.onabort = tx.onerror = () => reject(tx.error ?? request.error);
    });
  } finally {
    db.close();
  }
}

const available = () => typeof indexedDB !== 'undefined';

export async function readDurableTokens(): Promise<StoredTokens | null> {
  if (!available()) return null;
  try {
    const value = (await run('readonly', (s) => s.get(KEY))) as Partial<StoredTokens> | undefined;
    return value && typeof value.accessToken === 'string' && typeof value.refreshToken === 'string'
      ? { accessToken: value.accessToken, refreshToken: value.refreshToken }
      : null;
  } catch {
    return null;
  }
}

/** Stores (or with null removes) the pair; resolves once committed. */
export async function writeDurableTokens(tokens: StoredTokens | null): Promise<void> {
  if (!available()) return;
  try {
    await run('readwrite', (s) => (tokens ? s.put(tokens, KEY) : s.delete(KEY)));
  } catch (error) {
    // Without a durable copy the session lives in localStorage alone, as before.
    console.error(error);
  }
}
