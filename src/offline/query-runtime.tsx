import type { ReactNode } from 'react';
import { createQueryClient } from '../api/query-client';
import { PersistProvider } from './persister';

/**
 * The query cache and its IndexedDB copy belong to the signed-in area: they load with its layout,
 * not with the sign-in page, which keeps ~11 KB (TanStack Query, the persister, idb-keyval) off the
 * first route.
 */
export const queryClient = createQueryClient();

export function QueryRuntime({ children }: { children: ReactNode }) {
  return <PersistProvider client={queryClient}>{children}</PersistProvider>;
}
