import { ListPanel } from '../../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { chargingHistoryFilters, type ChargingRequestRow } from '../../../../contract/cockpit';
import { useT } from '../../../i18n/i18n-context';
import { LoadError } from '../../../ui/load-error';
import { OfflineUnavailable, isPageWaitingOffline } from '../../../layout/offline-unavailable';
import { DataTable } from '../../../ui/data-table';
import { MultiSelect } from '../../../ui/multi-select';
import { chargingHistoryQueryOptions } from '../../../shared/charging-requests/charging-request-queries';
import { useChargingRequestColumns } from '../../../shared/charging-requests/columns';
import { CleanRequestsButton } from './clean-requests-dialog';
import { DataAgeNote } from '../../../offline/data-age-note';
import { HistorySearchForm } from './history-search-form';
import { defaultHistorySearch, historyParams, resolveHistorySearch, type HistorySearch } from '../history-search';
import type { CockpitSearch } from '../api/cockpit-search';

export interface ChargingHistoryProps {
  isAdmin: boolean;
  /** The applied search, paging included: the cockpit's URL. */
  search: CockpitSearch;
  onSearchChange: (next: CockpitSearch) => void;
}

/** Search, status filter and the server-paged charging-request table (newest first). */
export function ChargingHistory({ isAdmin, search, onSearchChange }: ChargingHistoryProps) {
  const t = useT();
  const params = historyParams(search);
  const { filters, page, size } = params;
  const setPage = (next: number) => onSearchChange({ ...search, page: next });
  // The default range is kept as '' in the URL, so a saved link keeps meaning 'the last 7 days'.
  const fallback = defaultHistorySearch();
  const applySearch = (next: HistorySearch) => {
    const isDefaultRange = next.startDate === fallback.startDate && next.endDate === fallback.endDate;
    onSearchChange({
      ...search,
      ...next,
      startDate: isDefaultRange ? '' : next.startDate,
      endDate: isDefaultRange ? '' : next.endDate,
      page: 0,
    });
  };
  const query = useQuery(chargingHistoryQueryOptions(params));
  const columns = useChargingRequestColumns();
  const rows = query.data?.response ?? [];

  return (
    <ListPanel
      heading={t('cockpit.history.heading')}
      headingId="cockpit-history-heading"
      actions={
        <>
          <DataAgeNote queryKey={chargingHistoryQueryOptions(params).queryKey} />
          {isAdmin && <CleanRequestsButton />}
        </>
      }
    >
      <HistorySearchForm key={JSON.stringify(resolveHistorySearch(search))} initial={resolveHistorySearch(search)} onSearch={applySearch} />

      <MultiSelect
        label={t('cockpit.history.statusFilter')}
        items={chargingHistoryFilters.map((id) => ({
          id,
          label: t(`cockpit.history.filters.${id}`),
        }))}
        value={filters}
        onChange={(value) => onSearchChange({ ...search, filters: value.map(String).sort(), page: 0 })}
        showAll
        placeholder={t('cockpit.history.allStatuses')}
        className="sm:max-w-[320px]"
      />

      {isPageWaitingOffline(query) ? (
        <OfflineUnavailable page />
      ) : query.isError && !query.data ? (
        <LoadError message={t('cockpit.history.error')} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable<ChargingRequestRow>
          aria-labelledby="cockpit-history-heading"
          columns={columns}
          rows={rows}
          getRowId={(row) => row.transactionId}
          totalNumberOfRecords={query.data?.totalNumberOfRecords ?? 0}
          page={page}
          pageSize={size}
          onPageChange={setPage}
          onPageSizeChange={(next) => onSearchChange({ ...search, size: next, page: 0 })}
          isLoading={query.isFetching && (query.isPlaceholderData || !query.data)}
          minWidth={560}
        />
      )}
    </ListPanel>
  );
}
