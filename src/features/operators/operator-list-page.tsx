import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { OperatorListRow } from '../../../contract/operators';
import { useT } from '../../i18n/i18n-context';
import { Button, LinkButton } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { PagedListTable } from '../../layout/paged-list-table';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../../auth/session-context';
import { DataAgeNote } from '../../offline/data-age-note';
import { noOperatorFilters, type OperatorFilters, type OperatorListParams } from './api/operator-keys';
import { operatorListQueryOptions } from './api/operator-queries';
import type { Session } from '../../auth/session';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The wizard (three steps, many fields, dialogs) loads only when someone wants to add an operator.
const OperatorWizard = lazyDialog(() => import('./components/operator-wizard').then((m) => m.OperatorWizard));

/** Spec 1 §2/§6: the create button shows unless the viewer is an Operator-type user who is not an admin. */
export function canCreateOperator(session: Pick<Session, 'isAdmin' | 'claims'>): boolean {
  return session.isAdmin || session.claims?.customer_type !== 'Operator';
}

/**
 * /betreiber (spec 1 §2, spec 3 §2): the server-paged operator list with the creation wizard.
 * `list`: the URL's search params (page and size survive reload, back and links).
 */
export function OperatorListPage({ list: source }: { list: ListStateSource<OperatorFilters> }) {
  const t = useT();
  const session = useSession();
  const list = useListFilters<OperatorFilters>(noOperatorFilters, undefined, source);
  const { page, size } = list;
  const wizard = useDialogOpener();

  const params: OperatorListParams = { page, size };
  const options = operatorListQueryOptions(params);
  const query = useQuery(options);
  const columns = useColumns();

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('operators.list.title')}
        description={t('operators.list.intro')}
        className="mb-0"
        actions={canCreateOperator(session) ? <Button onPress={wizard.open}>{t('operators.list.add')}</Button> : undefined}
      />
      <ListPanel
        heading={t('operators.list.heading')}
        headingId="operators-table-heading"
        actions={<DataAgeNote queryKey={options.queryKey} />}
      >
        <PagedListTable<OperatorListRow>
          query={query}
          errorMessage={t('operators.list.error')}
          aria-labelledby="operators-table-heading"
          columns={columns}
          getRowId={(row) => row.cpoId}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          emptyText={t('operators.list.empty')}
          minWidth={560}
        />
      </ListPanel>
      <OperatorWizard opener={wizard} />
    </div>
  );
}

function useColumns(): DataTableColumn<OperatorListRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<OperatorListRow>[]>(
    () => [
      { id: 'cpoId', header: t('operators.columns.id'), cell: (r) => r.cpoId, noWrap: true },
      { id: 'cpoName', header: t('operators.columns.name'), cell: (r) => r.cpoName, isRowHeader: true },
      { id: 'locations', header: t('operators.columns.locations'), cell: (r) => r.nrOfLocations, align: 'end', noWrap: true },
      { id: 'endCustomers', header: t('operators.columns.endCustomers'), cell: (r) => r.nrOfEndCustomers, align: 'end', noWrap: true },
      {
        id: 'details',
        header: t('operators.columns.details'),
        hideHeader: true,
        cell: (r) => (
          <LinkButton
            href={`/betreiber/${encodeURIComponent(r.cpoId)}`}
            size="sm"
            aria-label={t('operators.list.detailsFor', { name: r.cpoName })}
          >
            {t('operators.list.details')}
          </LinkButton>
        ),
        align: 'end',
      },
    ],
    [t],
  );
}
