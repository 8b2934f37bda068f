import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import type { ChargingRequestRow } from '../../../../contract/cockpit';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { DataTable, DEFAULT_PAGE_SIZE, type DataTableColumn } from '../../../ui/data-table';
import { DateRangeField, type DateRangeFieldValue } from '../../../ui/date-range-field';
import { defaultRange, toWire, todayLocal } from '../../../ui/date-range';
import { StatusBadge } from '../../../ui/status-badge';
import { stationHistoryQueryOptions } from '../api/station-detail-queries';
import { periodDisplay } from '../../charging-requests/period';
import { DataAgeNote } from '../../../offline/data-age-note';

function defaultWireRange(): { start: string; end: string } {
  const { start, end } = defaultRange(todayLocal());
  return { start: toWire(start), end: toWire(end) };
}

/** Date filter (default: the last 7 days) and the server-paged table of successful charging requests. */
export function StationHistory({ connectorId }: { connectorId: string }) {
  const t = useT();
  const [initial] = useState(defaultWireRange);
  const [range, setRange] = useState(initial);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);

  const options = stationHistoryQueryOptions({ connectorId, startDate: range.start, endDate: range.end, page, size });
  const query = useQuery(options);
  const columns = useColumns();

  const changeRange = (next: DateRangeFieldValue) => {
    // An incomplete or invalid range keeps the last valid one on screen; the field shows the error.
    if (!next.isValid || !next.start || !next.end) return;
    setRange({ start: next.start, end: next.end });
    setPage(0);
  };

  return (
    <section
      aria-labelledby="station-history-heading"
      className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm"
    >
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="station-history-heading" className="text-lg font-semibold text-fg">
          {t('stationDetail.history.heading')}
        </h2>
        <DataAgeNote queryKey={options.queryKey} />
      </header>

      <DateRangeField defaultValue={initial} onChange={changeRange} className="gap-3" />

      {query.isError && !query.data ? (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger bg-danger-soft px-4 py-2 text-fg"
        >
          <span>{t('stationDetail.history.error')}</span>
          <Button variant="secondary" size="sm" onPress={() => void query.refetch()}>
            {t('stationDetail.retry')}
          </Button>
        </div>
      ) : (
        <DataTable<ChargingRequestRow>
          aria-labelledby="station-history-heading"
          columns={columns}
          rows={query.data?.response ?? []}
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
          minWidth={860}
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

const small = (content: ReactNode) => <span className="text-sm">{content}</span>;

function useColumns(): DataTableColumn<ChargingRequestRow>[] {
  const t = useT();
  const f = useFormat();
  return useMemo<DataTableColumn<ChargingRequestRow>[]>(
    () => [
      {
        id: 'transactionId',
        header: t('stationDetail.history.columns.transactionId'),
        cell: (r) => small(r.transactionId),
        isRowHeader: true,
        noWrap: true,
      },
      {
        id: 'endCustomerId',
        header: t('stationDetail.history.columns.endCustomerId'),
        cell: (r) => small(r.endCustomerId ?? '–'),
        noWrap: true,
      },
      {
        id: 'name',
        header: t('stationDetail.history.columns.name'),
        cell: (r) => small(r.customerFullName ?? '–'),
      },
      {
        id: 'parkingLot',
        header: t('stationDetail.history.columns.parkingLot'),
        cell: (r) => small(r.parkingLot ?? '–'),
        noWrap: true,
      },
      {
        id: 'period',
        header: t('stationDetail.history.columns.period'),
        cell: (r) => small(<Period row={r} />),
      },
      {
        id: 'energy',
        header: withUnit(t('stationDetail.history.columns.energy'), t('stationDetail.history.columns.energyUnit')),
        cell: (r) => small(f.number(r.energyCharged, 2)),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'cost',
        header: withUnit(t('stationDetail.history.columns.cost'), t('stationDetail.history.columns.costUnit')),
        cell: (r) => small(f.money(r.sessionCost)),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'status',
        header: t('stationDetail.history.columns.status'),
        cell: (r) => (
          <StatusBadge color={r.chargingRequestStatusMapping.colourCode} className="text-xs">
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
  return <span>{t('chargingRequest.period.range', { start: period.start, end: period.end })}</span>;
}
