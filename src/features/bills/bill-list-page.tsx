import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { Key } from 'react-aria-components/Table';
import type { BillRow } from '../../../contract/bills';
import { useT } from '../../i18n/i18n-context';
import { PagedListTable } from '../../layout/paged-list-table';
import { DataAgeNote } from '../../offline/data-age-note';
import { ListPanel } from '../../ui/card';
import { ActionMenu } from '../../ui/menu';
import { PageHeader } from '../../ui/page-header';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { billListParams } from './api/bill-params';
import { billListQueryOptions } from './api/bill-queries';
import { noBillFilters, type BillFilters } from './api/bill-search';
import { useBillActions } from './components/bill-actions';
import { useBillColumns } from './components/bill-columns';
import { BillFilterForm } from './components/bill-filters';

/**
 * /rechnungen (spec 3 §2): the operator's bills of a range of generation dates, filtered and paged
 * on the server, multi-select, with the actions menu. Offline the list seen is kept with its age.
 */
export function BillListPage({ list: source }: { list: ListStateSource<BillFilters> }) {
  const t = useT();
  const [selectedKeys, setSelectedKeys] = useState<ReadonlySet<Key>>(new Set());
  const clearSelection = () => setSelectedKeys(new Set());
  // A new page (or new filters) is a new set of rows: the selection does not carry over.
  const list = useListFilters<BillFilters>(noBillFilters, clearSelection, source);
  const params = billListParams({ ...list.applied, page: list.page, size: list.size });
  const options = billListQueryOptions(params);
  const query = useQuery(options);
  const columns = useBillColumns();
  const rows = useMemo(() => query.data?.response ?? [], [query.data]);
  const selected = rows.filter((r) => selectedKeys.has(r.billId));
  const actions = useBillActions(selected, clearSelection);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('bills.title')} description={t('bills.intro')} className="mb-0" />
      <ListPanel
        heading={t('bills.heading')}
        headingId="bills-table-heading"
        note={<DataAgeNote queryKey={options.queryKey} />}
        actions={<ActionMenu items={actions.items} onAction={actions.onAction} />}
      >
        <BillFilterForm list={list} applied={params} />
        <PagedListTable<BillRow>
          query={query}
          errorMessage={t('bills.error')}
          aria-labelledby="bills-table-heading"
          columns={columns}
          getRowId={(row) => row.billId}
          page={list.page}
          pageSize={list.size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          selectionMode="multiple"
          selectedKeys={selectedKeys}
          onSelectionChange={setSelectedKeys}
          emptyText={t('bills.empty')}
          minWidth={640}
        />
      </ListPanel>
      {actions.dialogs}
    </div>
  );
}
