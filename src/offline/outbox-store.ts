import { createStore, type UseStore } from 'idb-keyval';
import type { OutboxWrite } from './outbox-write';
import { byOrder } from './outbox-write';

/** The outbox's IndexedDB object store: every change is one transaction, so a killed tab leaves whole records. */

export const OUTBOX_DB = 'cpo-cockpit-outbox';
export const OUTBOX_STORE = 'writes';

function req<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function txDone(store: IDBObjectStore): Promise<void> {
  const tx = store.transaction;
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

const isWrite = (w: unknown): w is OutboxWrite => !!w && typeof w === 'object' && typeof (w as OutboxWrite).id === 'string';

export class OutboxStore {
  private readonly store: UseStore;

  constructor(store?: UseStore) {
    this.store = store ?? createStore(OUTBOX_DB, OUTBOX_STORE);
  }

  /** Every stored write in creation order. */
  async readAll(): Promise<OutboxWrite[]> {
    const all = await this.store('readonly', (os) => req(os.getAll() as IDBRequest<unknown[]>));
    return all.filter(isWrite).sort(byOrder);
  }

  /** The stored copies of `ids` (undefined where a write is gone). */
  read(ids: readonly string[]): Promise<(OutboxWrite | undefined)[]> {
    return this.store('readonly', (os) =>
      Promise.all(ids.map((id) => req(os.get(id) as IDBRequest<unknown>).then((w) => (isWrite(w) ? w : undefined)))),
    );
  }

  add(write: OutboxWrite): Promise<void> {
    return this.store('readwrite', (os) => {
      os.put(write, write.id);
      return txDone(os);
    });
  }

  /** Atomic read-modify-write of one record; `fn` returning null leaves it untouched (and answers null). */
  update(id: string, fn: (w: OutboxWrite) => OutboxWrite | null): Promise<OutboxWrite | null> {
    return this.store('readwrite', async (os) => {
      const current = await req(os.get(id) as IDBRequest<unknown>);
      const updated = isWrite(current) ? fn(current) : null;
      if (!updated) return null;
      os.put(updated, id);
      await txDone(os);
      return updated;
    });
  }

  /** Deletes the record when `removable` allows it; answers whether it was deleted. */
  removeIf(id: string, removable: (w: OutboxWrite) => boolean): Promise<boolean> {
    return this.store('readwrite', async (os) => {
      const current = await req(os.get(id) as IDBRequest<unknown>);
      if (!isWrite(current) || !removable(current)) return false;
      os.delete(id);
      await txDone(os);
      return true;
    });
  }

  remove(ids: readonly string[]): Promise<void> {
    return this.store('readwrite', (os) => {
      for (const id of ids) os.delete(id);
      return txDone(os);
    });
  }
}
