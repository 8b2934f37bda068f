import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps } from '../ui/data-table';
import { LoadError } from '../ui/load-error';
import { OfflineUnavailable, isWaitingOffline } from './offline-unavailable';

export interface PagedListTableProps<T> extends Omit<DataTableProps<T>, 'rows' | 'totalNumberOfRecords' | 'isLoading'> {
  /** One page of a server-paged list (`{ totalNumberOfRecords, response }`). */
  query: UseQueryResult<{ totalNumberOfRecords: number; response: T[] }>;
  /** The 'server again' warning shown when the page could not be loaded. */
  errorMessage: string;
}

/**
 * A list page's table over its page query: offline and never loaded, that the view is not kept
 * offline; a failed load without data, the warning with a retry; else the table, busy while a new
 * page or search loads over the old rows.
 */
export function PagedListTable<T>({ query, errorMessage, ...table }: PagedListTableProps<T>) {
  if (isWaitingOffline(query)) return <OfflineUnavailable />;
  if (query.isError && !query.data) return <LoadError message={errorMessage} onRetry={() => void query.refetch()} />;
  return (
    <DataTable<T>
      {...table}
      rows={query.data?.response ?? []}
      totalNumberOfRecords={query.data?.totalNumberOfRecords ?? 0}
      isLoading={query.isFetching && (query.isPlaceholderData || !query.data)}
    />
  );
}
