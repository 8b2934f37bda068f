import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { chargingHistoryFilters, type ChargingHistoryFilter, type ChargingRequestRow } from '../../../../contract/cockpit';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { DataTable, DEFAULT_PAGE_SIZE, type DataTableColumn } from '../../../ui/data-table';
import { MultiSelect } from '../../../ui/multi-select';
import { StatusBadge } from '../../../ui/status-badge';
import type { HistoryParams } from '../api/cockpit-keys';
import { historyQueryOptions } from '../api/cockpit-queries';
import { periodDisplay } from '../../charging-requests/period';
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

  const params: HistoryParams = {
    ...search,
    filters: [...filters].sort(),
    page,
    size,
  };
  const query = useQuery(historyQueryOptions(params));
  const columns = useColumns();
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
          <DataAgeNote queryKey={historyQueryOptions(params).queryKey} />
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
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger bg-danger-soft px-4 py-2 text-fg"
        >
          <span>{t('cockpit.history.error')}</span>
          <Button variant="secondary" size="sm" onPress={() => void query.refetch()}>
            {t('cockpit.retry')}
          </Button>
        </div>
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

/** Header with its unit on a second line, so the amount columns stay narrow. */
function withUnit(label: string, unit: string) {
  return (
    <span className="flex flex-col leading-tight">
      <span>{label}</span>
      <span className="font-normal text-muted">{unit}</span>
    </span>
  );
}

/** Nine columns must fit a desktop without scrolling: cells use the small type size. */
const small = (content: ReactNode) => <span className="text-sm">{content}</span>;

function useColumns(): DataTableColumn<ChargingRequestRow>[] {
  const t = useT();
  const f = useFormat();
  return useMemo<DataTableColumn<ChargingRequestRow>[]>(
    () => [
      {
        id: 'transactionId',
        header: t('cockpit.history.columns.transactionId'),
        cell: (r) => small(r.transactionId),
        isRowHeader: true,
        noWrap: true,
      },
      {
        id: 'endCustomerId',
        header: t('cockpit.history.columns.endCustomerId'),
        cell: (r) => small(r.endCustomerId ?? '–'),
        noWrap: true,
      },
      {
        id: 'name',
        header: t('cockpit.history.columns.name'),
        cell: (r) => small(r.customerFullName ?? '–'),
      },
      {
        id: 'address',
        header: t('cockpit.history.columns.address'),
        cell: (r) => (
          <span className="flex flex-col text-sm">
            <span className="whitespace-nowrap">{r.locationAddress.street}</span>
            <span className="whitespace-nowrap text-xs text-muted">
              {[r.locationAddress.careOf && `c/o ${r.locationAddress.careOf}`, `${r.locationAddress.zipCode} ${r.locationAddress.city}`]
                .filter(Boolean)
                .join(', ')}
            </span>
          </span>
        ),
      },
      {
        id: 'parkingLot',
        header: t('cockpit.history.columns.parkingLot'),
        cell: (r) => small(r.parkingLot ?? '–'),
        noWrap: true,
      },
      {
        id: 'period',
        header: t('cockpit.history.columns.period'),
        cell: (r) => small(<Period row={r} />),
      },
      {
        id: 'energy',
        header: withUnit(t('cockpit.history.columns.energy'), t('cockpit.history.columns.energyUnit')),
        cell: (r) => small(f.number(r.energyCharged, 2)),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'cost',
        header: withUnit(t('cockpit.history.columns.cost'), t('cockpit.history.columns.costUnit')),
        cell: (r) => small(f.money(r.sessionCost)),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'status',
        header: t('cockpit.history.columns.status'),
        cell: (r) => (
          <StatusBadge color={r.chargingRequestStatusMapping.colourCode} className="text-xs">
            {/* Long names ('Beenden angefordert') may take two lines rather than push the table wider. */}
            <span className="whitespace-normal">{t(`chargingRequest.status.${r.status}`)}</span>
          </StatusBadge>
        ),
      },
    ],
    [t, f],
  );
}

function Period({ row }: { row: ChargingRequestRow }) {
  const t = useT();
  const period = periodDisplay(row);
  // A narrow column wraps between date and time ('22.11.2026 / 05:13 Uhr'), never inside them.
  if (period.kind === 'start') return <span>{t('chargingRequest.period.since', { start: period.start })}</span>;
  if (period.kind === 'charging') {
    return (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span>{period.start}</span>
        <span className="inline-flex items-center gap-1 rounded-full bg-primary-soft px-2 py-0.5 text-xs font-medium text-fg">
          <span aria-hidden="true" className="size-1.5 rounded-full bg-primary motion-safe:animate-pulse" />
          {t('chargingRequest.period.charging')}
        </span>
      </span>
    );
  }
  if (period.kind === 'ended') return <span>{period.start}</span>;
  // The message keeps the dash with the start time; a narrow column may wrap between date and time.
  return <span>{t('chargingRequest.period.range', { start: period.start, end: period.end })}</span>;
}
