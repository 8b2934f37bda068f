import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { CustomerDetail, DashboardUserRow } from '../../../contract/customers';
import { useT } from '../../i18n/i18n-context';
import { DetailPage } from '../../layout/detail-page';
import { PagedListTable } from '../../layout/paged-list-table';
import { AlertDialog } from '../../ui/alert-dialog';
import { Button } from '../../ui/button';
import { Card, ListPanel } from '../../ui/card';
import type { DataTableColumn } from '../../ui/data-table';
import { pageSizes } from '../../../contract/common';
import { customerDetailQueryOptions, dashboardUsersQueryOptions, resendInvitationMutation } from './api/customer-queries';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

const AddUserWizard = lazyDialog(() => import('./components/add-user-wizard').then((m) => m.AddUserWizard));

/**
 * /customers/{id} (spec 3 §2, admins only): back link, the customer's number, name, address and
 * type, 'resend invitation' while its contract is CREATED_UNSIGNED, and the server-paged table of
 * its dashboard users with 'add external user'.
 */
export function CustomerDetailPage({ customerId }: { customerId: string }) {
  const t = useT();
  const query = useQuery(customerDetailQueryOptions(customerId));

  return (
    <DetailPage
      query={query}
      messages="customers.detail"
      backHref="/customers"
      header={(customer) => ({
        description: t('customers.detail.subtitle', { id: customer.customerId, name: customer.companyName }),
      })}
    >
      {(customer) => (
        <>
          <CustomerInfo customer={customer} />
          <DashboardUsers customer={customer} />
        </>
      )}
    </DetailPage>
  );
}

function CustomerInfo({ customer }: { customer: CustomerDetail }) {
  const t = useT();
  const [sent, setSent] = useState<'sent' | 'failed' | null>(null);
  const resend = useMutation({
    ...resendInvitationMutation(),
    onSuccess: () => setSent('sent'),
    onError: () => setSent('failed'),
  });
  const { address } = customer;
  const entries: [string, string][] = [
    [t('customers.fields.customerId'), customer.customerId],
    [t('customers.fields.companyName'), customer.companyName],
    [
      t('customers.detail.address'),
      [address.careOf ? `c/o ${address.careOf}` : '', address.street, `${address.zipCode} ${address.city}`].filter(Boolean).join(', '),
    ],
    [t('customers.fields.customerType'), t(`customers.customerType.${customer.customerType}`)],
  ];
  return (
    <Card
      title={t('customers.detail.info')}
      actions={
        customer.contractStatus === 'CREATED_UNSIGNED' && customer.contractKey ? (
          <Button
            variant="secondary"
            size="sm"
            isDisabled={resend.isPending}
            onPress={() => resend.mutate({ customerId: customer.customerId, contractKey: customer.contractKey! })}
          >
            {t('customers.detail.resend')}
          </Button>
        ) : undefined
      }
    >
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)]">
        {entries.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted">{label}</dt>
            <dd className="min-w-0 break-words text-fg">{value}</dd>
          </div>
        ))}
      </dl>
      <AlertDialog isOpen={sent === 'sent'} onClose={() => setSent(null)} variant="success" title={t('customers.detail.resendTitle')}>
        <p>{t('customers.detail.invitemailSent')}</p>
      </AlertDialog>
      <AlertDialog isOpen={sent === 'failed'} onClose={() => setSent(null)} variant="error" title={t('errors.title')}>
        <p>{t('errors.somethingWrong')}</p>
      </AlertDialog>
    </Card>
  );
}

function DashboardUsers({ customer }: { customer: CustomerDetail }) {
  const t = useT();
  // Part of this page, not a page of its own: its paging stays in the component (ARCHITECTURE.md).
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(pageSizes[0]);
  const query = useQuery(dashboardUsersQueryOptions(customer.customerId, { page, size }));
  const wizard = useDialogOpener();
  const columns = useMemo<DataTableColumn<DashboardUserRow>[]>(
    () => [
      { id: 'name', header: t('customers.users.name'), cell: (r) => `${r.firstName} ${r.lastName}`, isRowHeader: true },
      { id: 'email', header: t('customers.users.email'), cell: (r) => r.email },
      { id: 'role', header: t('customers.users.role'), cell: (r) => r.role },
    ],
    [t],
  );
  return (
    <ListPanel
      heading={t('customers.users.heading')}
      headingId="customer-users-heading"
      actions={<Button onPress={wizard.open}>{t('customers.users.add')}</Button>}
    >
      <PagedListTable<DashboardUserRow>
        query={query}
        errorMessage={t('customers.users.error')}
        aria-labelledby="customer-users-heading"
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        pageSize={size}
        onPageChange={setPage}
        onPageSizeChange={(s) => {
          setSize(s);
          setPage(0);
        }}
        emptyText={t('customers.users.empty')}
        minWidth={520}
      />
      <AddUserWizard opener={wizard} customer={customer} />
    </ListPanel>
  );
}
