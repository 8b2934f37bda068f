import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { chargingHistoryFilters, type ChargingHistoryFilter, type ChargingRequestRow } from '../../../../contract/cockpit';
import { useT } from '../../../i18n/i18n-context';
import { LoadError } from '../../../ui/load-error';
import { DataTable } from '../../../ui/data-table';
import { DEFAULT_PAGE_SIZE } from '../../../ui/paging';
import { MultiSelect } from '../../../ui/multi-select';
import { chargingHistoryQueryOptions, type ChargingHistoryParams } from '../../../shared/charging-requests/charging-request-queries';
import { useChargingRequestColumns } from '../../../shared/charging-requests/columns';
import { CleanRequestsButton } from './clean-requests-dialog';
import { DataAgeNote } from '../../../offline/data-age-note';
import { HistorySearchForm, defaultHistorySearch, type HistorySearch } from './history-search-form';

/** Search, status filter and the server-paged charging-request table (newest first). */
export function ChargingHistory({ isAdmin }: { isAdmin: boolean }) {
  const t = useT();
  const [search, setSearch] = useState<HistorySearch>(defaultHistorySearch);
  const [filters, setFilters] = useState<ChargingHistoryFilter[]>([]);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);

  const params: ChargingHistoryParams = {
    ...search,
    filters: [...filters].sort(),
    page,
    size,
  };
  const query = useQuery(chargingHistoryQueryOptions(params));
  const columns = useChargingRequestColumns();
  const rows = query.data?.response ?? [];

  return (
    <section
      aria-labelledby="cockpit-history-heading"
      className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm"
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="cockpit-history-heading" className="text-lg font-semibold text-fg">
          {t('cockpit.history.heading')}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <DataAgeNote queryKey={chargingHistoryQueryOptions(params).queryKey} />
          {isAdmin && <CleanRequestsButton />}
        </div>
      </header>

      <HistorySearchForm
        onSearch={(next) => {
          setSearch(next);
          setPage(0);
        }}
      />

      <MultiSelect
        label={t('cockpit.history.statusFilter')}
        items={chargingHistoryFilters.map((id) => ({
          id,
          label: t(`cockpit.history.filters.${id}`),
        }))}
        value={filters}
        onChange={(value) => {
          setFilters(value.map(String) as ChargingHistoryFilter[]);
          setPage(0);
        }}
        showAll
        placeholder={t('cockpit.history.allStatuses')}
        className="sm:max-w-[320px]"
      />

      {query.isError && !query.data ? (
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
          onPageSizeChange={(next) => {
            setSize(next);
            setPage(0);
          }}
          isLoading={query.isFetching && (query.isPlaceholderData || !query.data)}
          minWidth={1000}
        />
      )}
    </section>
  );
}
