import { ListPanel } from '../../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ChargingRequestRow } from '../../../../contract/cockpit';
import { berlinDate } from '../../../../contract/contracts';
import { useT } from '../../../i18n/i18n-context';
import { PagedListTable } from '../../../layout/paged-list-table';
import { DataAgeNote } from '../../../offline/data-age-note';
import { chargingHistoryQueryOptions } from '../../../shared/charging-requests/charging-request-queries';
import { useChargingRequestColumns } from '../../../shared/charging-requests/columns';
import { Button } from '../../../ui/button';
import { DateRangeField, type DateRangeFieldValue } from '../../../ui/date-range-field';
import { defaultRange, toWire, todayLocal } from '../../../ui/date-range';
import { showNotice } from '../../../ui/notices';
import { DEFAULT_PAGE_SIZE } from '../../../ui/paging';
import { saveFile } from '../../../api/save-file';
import { fetchHistoryCsv } from '../api/user-queries';

/** One user: their id and name are the page's, not columns. */
const USER_OMITS = ['endCustomerId', 'name'] as const;

function defaultWireRange(): { start: string; end: string } {
  const { start, end } = defaultRange(todayLocal());
  return { start: toWire(start), end: toWire(end) };
}

/**
 * The user's charging history (spec 2 §2): the date filter (default the last 7 days, end at most
 * today), the shared charging-request table for this contract and the CSV download of the same range.
 */
export function UserHistory({ contractKey }: { contractKey: string }) {
  const t = useT();
  const [initial] = useState(defaultWireRange);
  const [range, setRange] = useState(initial);
  const [isValid, setIsValid] = useState(true);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const [downloading, setDownloading] = useState(false);

  const options = chargingHistoryQueryOptions({ contractKey, startDate: range.start, endDate: range.end, filters: [], page, size });
  const query = useQuery(options);
  const columns = useChargingRequestColumns(USER_OMITS);

  const changeRange = (next: DateRangeFieldValue) => {
    setIsValid(next.isValid);
    // An incomplete or invalid range keeps the last valid one on screen; the field shows the error.
    if (!next.isValid || !next.start || !next.end) return;
    setRange({ start: next.start, end: next.end });
    setPage(0);
  };

  const download = async () => {
    setDownloading(true);
    try {
      const file = await fetchHistoryCsv(contractKey, range.start, range.end, berlinDate(new Date()));
      if (file) saveFile(file.blob, file.filename);
      else showNotice({ id: 'history-csv', tone: 'info', message: t('users.history.noInfo'), timeout: 6_000 });
    } catch {
      showNotice({ id: 'history-csv', tone: 'error', message: t('errors.serverAgain'), timeout: 6_000 });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <ListPanel heading={t('users.history.heading')} headingId="user-history-heading" actions={<DataAgeNote queryKey={options.queryKey} />}>
      <div className="flex flex-wrap items-end gap-3">
        <DateRangeField defaultValue={initial} onChange={changeRange} className="gap-3" />
        <Button variant="secondary" onPress={() => void download()} isDisabled={!isValid} isPending={downloading}>
          {t('users.history.download')}
        </Button>
      </div>
      <PagedListTable<ChargingRequestRow>
        query={query}
        errorMessage={t('users.history.error')}
        aria-labelledby="user-history-heading"
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
