import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { CustomerListRow } from '../../../contract/customers';
import { useT } from '../../i18n/i18n-context';
import { PagedListTable } from '../../layout/paged-list-table';
import { Button, LinkButton } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { noCustomerFilters, type CustomerFilters } from './api/customer-keys';
import { customerListQueryOptions } from './api/customer-queries';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The wizard loads only when someone creates a customer.
const CustomerWizard = lazyDialog(() => import('./components/customer-wizard').then((m) => m.CustomerWizard));

/**
 * /customers (spec 3 §2, admins only): 'Customer management', 'Create customer' and the
 * server-paged table of customer number, company name and a Details link. Page and size live in
 * the URL; the list reloads on either and after the wizard closes.
 */
export function CustomerListPage({ list: source }: { list: ListStateSource<CustomerFilters> }) {
  const t = useT();
  const list = useListFilters<CustomerFilters>(noCustomerFilters, undefined, source);
  const { page, size } = list;
  const wizard = useDialogOpener();
  const query = useQuery(customerListQueryOptions({ page, size }));
  const columns = useColumns();

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('customers.list.title')}
        description={t('customers.list.intro')}
        className="mb-0"
        actions={<Button onPress={wizard.open}>{t('customers.list.add')}</Button>}
      />
      <ListPanel heading={t('customers.list.heading')} headingId="customers-table-heading">
        <PagedListTable<CustomerListRow>
          query={query}
          errorMessage={t('customers.list.error')}
          aria-labelledby="customers-table-heading"
          columns={columns}
          getRowId={(row) => row.customerId}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          emptyText={t('customers.list.empty')}
          minWidth={480}
        />
      </ListPanel>
      <CustomerWizard opener={wizard} />
    </div>
  );
}

function useColumns(): DataTableColumn<CustomerListRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<CustomerListRow>[]>(
    () => [
      { id: 'customerId', header: t('customers.columns.customerId'), cell: (r) => r.customerId, noWrap: true },
      { id: 'companyName', header: t('customers.columns.companyName'), cell: (r) => r.companyName, isRowHeader: true },
      {
        id: 'details',
        header: t('customers.columns.details'),
        hideHeader: true,
        cell: (r) => (
          <LinkButton
            href={`/customers/${encodeURIComponent(r.customerId)}`}
            size="sm"
            aria-label={t('customers.list.detailsFor', { name: r.companyName })}
          >
            {t('customers.list.details')}
          </LinkButton>
        ),
        align: 'end',
      },
    ],
    [t],
  );
}
