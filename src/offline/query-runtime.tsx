import { useEffect, type ReactNode } from 'react';
import { createQueryClient } from '../api/query-client';
import { startOutbox } from './outbox';
import { PersistProvider } from './persister';

/**
 * The query cache and its IndexedDB copy belong to the signed-in area: they load with its layout,
 * not with the sign-in page, which keeps ~11 KB (TanStack Query, the persister, idb-keyval) off the
 * first route.
 */
export const queryClient = createQueryClient();

export function QueryRuntime({ children }: { children: ReactNode }) {
  // Queued writes are replayed as soon as a signed-in screen opens (and then on reconnect, on
  // return to the foreground and after a new sign-in); before sign-in there is nobody to send as.
  useEffect(() => startOutbox(), []);
  return <PersistProvider client={queryClient}>{children}</PersistProvider>;
}
