import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { RfidRow } from '../../../contract/rfid';
import { useT } from '../../i18n/i18n-context';
import { PagedListTable } from '../../layout/paged-list-table';
import { Button } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { noRfidFilters, type RfidFilters } from './api/rfid-keys';
import { rfidListQueryOptions } from './api/rfid-queries';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

const AddRfidWizard = lazyDialog(() => import('./components/add-rfid-wizard').then((m) => m.AddRfidWizard));

/** /rfid (spec 2 §2, admins only): the server-paged table of serial numbers and tags, and 'add RFID'. */
export function RfidPage({ list: source }: { list: ListStateSource<RfidFilters> }) {
  const t = useT();
  const list = useListFilters<RfidFilters>(noRfidFilters, undefined, source);
  const { page, size } = list;
  const query = useQuery(rfidListQueryOptions({ page, size }));
  const wizard = useDialogOpener();
  const columns = useMemo<DataTableColumn<RfidRow>[]>(
    () => [
      { id: 'serialId', header: t('rfid.columns.serialId'), cell: (r) => r.serialId, isRowHeader: true },
      { id: 'rfidTag', header: t('rfid.columns.rfidTag'), cell: (r) => r.rfidTag },
    ],
    [t],
  );

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('rfid.title')}
        description={t('rfid.intro')}
        className="mb-0"
        actions={<Button onPress={wizard.open}>{t('rfid.addButton')}</Button>}
      />
      <ListPanel heading={t('rfid.heading')} headingId="rfid-table-heading">
        <PagedListTable<RfidRow>
          query={query}
          errorMessage={t('rfid.error')}
          aria-labelledby="rfid-table-heading"
          columns={columns}
          getRowId={(row) => row.serialId}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          emptyText={t('rfid.empty')}
          minWidth={420}
        />
      </ListPanel>
      <AddRfidWizard opener={wizard} />
    </div>
  );
}
