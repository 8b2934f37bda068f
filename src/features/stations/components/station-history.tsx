import { ListPanel } from '../../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChargingRequestRow } from '../../../../contract/cockpit';
import { useT } from '../../../i18n/i18n-context';
import { PagedListTable } from '../../../layout/paged-list-table';
import { DEFAULT_PAGE_SIZE } from '../../../ui/paging';
import { DateRangeField, type DateRangeFieldValue } from '../../../ui/date-range-field';
import { defaultRange, toWire, todayLocal } from '../../../ui/date-range';
import { chargingHistoryQueryOptions } from '../../../shared/charging-requests/charging-request-queries';
import { useChargingRequestColumns } from '../../../shared/charging-requests/columns';
import { DataAgeNote } from '../../../offline/data-age-note';

/** One station: its address is the page's, not a column's. */
const STATION_OMITS = ['address'] as const;

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

  // Only successful charging requests are listed on the station page (spec 2 §3).
  const options = chargingHistoryQueryOptions({
    connectorId,
    startDate: range.start,
    endDate: range.end,
    filters: ['Completed'],
    page,
    size,
  });
  const query = useQuery(options);
  const columns = useChargingRequestColumns(STATION_OMITS);

  const changeRange = (next: DateRangeFieldValue) => {
    // An incomplete or invalid range keeps the last valid one on screen; the field shows the error.
    if (!next.isValid || !next.start || !next.end) return;
    setRange({ start: next.start, end: next.end });
    setPage(0);
  };

  return (
    <ListPanel
      heading={t('stationDetail.history.heading')}
      headingId="station-history-heading"
      actions={<DataAgeNote queryKey={options.queryKey} />}
    >
      <DateRangeField defaultValue={initial} onChange={changeRange} className="gap-3" />

      <PagedListTable<ChargingRequestRow>
        query={query}
        errorMessage={t('stationDetail.history.error')}
        aria-labelledby="station-history-heading"
        columns={columns}
        getRowId={(row) => row.transactionId}
        page={page}
        pageSize={size}
        onPageChange={setPage}
        onPageSizeChange={(next) => {
          setSize(next);
          setPage(0);
        }}
        minWidth={560}
      />
    </ListPanel>
  );
}
