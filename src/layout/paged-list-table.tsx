import type { UseQueryResult } from '@tanstack/react-query';
import { DataTable, type DataTableProps } from '../ui/data-table';
import { LoadError } from '../ui/load-error';
import { OfflineUnavailable, isPageWaitingOffline, isWaitingOffline } from './offline-unavailable';

export interface PagedListTableProps<T> extends Omit<DataTableProps<T>, 'rows' | 'totalNumberOfRecords' | 'isLoading'> {
  /** One page of a server-paged list (`{ totalNumberOfRecords, response }`). */
  query: UseQueryResult<{ totalNumberOfRecords: number; response: T[] }>;
  /** The 'server again' warning shown when the page could not be loaded. */
  errorMessage: string;
}

/**
 * A list page's table over its page query: offline and never loaded (also another page or filter
 * than the kept ones), that the view is not kept offline; a failed load without data, the warning with a retry; else the table, busy while a new
 * page or search loads over the old rows.
 */
export function PagedListTable<T>({ query, errorMessage, ...table }: PagedListTableProps<T>) {
  if (isWaitingOffline(query)) return <OfflineUnavailable />;
  // Offline (or the server not answering), the next page or a new filter would otherwise show the
  // previous rows greyed with a spinner, or (paused, so not fetching) as if they were the answer.
  if (isPageWaitingOffline(query)) return <OfflineUnavailable page />;
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
