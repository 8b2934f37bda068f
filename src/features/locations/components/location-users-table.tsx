import { useQuery } from '@tanstack/react-query';
import { useId, useMemo } from 'react';
import { userTypes, type BillStatus, type UserType } from '../../../../contract/enums';
import type { LocationContractRow } from '../../../../contract/locations';
import { useT } from '../../../i18n/i18n-context';
import { DataAgeNote } from '../../../offline/data-age-note';
import { DataTable, type DataTableColumn } from '../../../ui/data-table';
import { FilterForm, FilterTextField } from '../../../ui/filter-form';
import { LoadError } from '../../../ui/load-error';
import { useListFilters } from '../../../ui/use-list-filters';
import { MultiSelect } from '../../../ui/multi-select';
import { StatusBadge } from '../../../ui/status-badge';
import { locationContractsQueryOptions } from '../api/location-contracts-queries';
import { contractStatusMessageId } from '../../../shared/connector-status';

interface Filters {
  endCustomerId: string;
  name: string;
  rfId: string;
  userTypes: UserType[];
}
const noFilters: Filters = { endCustomerId: '', name: '', rfId: '', userTypes: [] };

/** Spec 2 §2: only these two bill states are shown; any other state leaves the cell empty. */
const shownBillingStatuses: Partial<Record<BillStatus, { key: string; tone: 'success' | 'warning' }>> = {
  PAID: { key: 'locationUsers.billingStatus.PAID', tone: 'success' },
  UNPAID: { key: 'locationUsers.billingStatus.UNPAID', tone: 'warning' },
};

const isUserType = (value: unknown): value is UserType => (userTypes as readonly unknown[]).includes(value);

/**
 * The users (contracts) of one location on /standorte/{id} (spec 2 §2): the /nutzer columns and
 * filters without the location filter, server-filtered and server-paged. Read-only: no selection,
 * no bulk actions and no links to /nutzer/{id}.
 */
export function LocationUsersTable({ locationId }: { locationId: string }) {
  const t = useT();
  const headingId = useId();
  const list = useListFilters<Filters>(noFilters);
  const { draft, applied, page, size } = list;

  const options = locationContractsQueryOptions(locationId, { ...applied, page, size });
  const query = useQuery(options);
  const columns = useColumns();
  const rows = useMemo(() => query.data?.response ?? [], [query.data]);
  // The server accepts exactly these values, so the filter needs no dropdown request (and works offline).
  const userTypeItems = useMemo(() => userTypes.map((u) => ({ id: u, label: t(`locationUsers.userTypes.${u}`) })), [t]);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-4 shadow-sm">
      <header className="flex flex-wrap items-center gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-fg">
          {t('locationUsers.heading')}
        </h2>
        <DataAgeNote queryKey={options.queryKey} />
      </header>
      <FilterForm aria-label={t('locationUsers.searchLabel')} onSubmit={list.submit} onReset={list.reset}>
        <FilterTextField
          label={t('locationUsers.filters.endCustomerId')}
          value={draft.endCustomerId}
          onChange={(v) => list.setField('endCustomerId', v)}
          className="w-full sm:w-[180px]"
        />
        <FilterTextField
          label={t('locationUsers.filters.name')}
          value={draft.name}
          onChange={(v) => list.setField('name', v)}
          className="w-full sm:w-[200px]"
        />
        <FilterTextField
          label={t('locationUsers.filters.rfId')}
          value={draft.rfId}
          onChange={(v) => list.setField('rfId', v)}
          className="w-full sm:w-[180px]"
        />
        <MultiSelect
          label={t('locationUsers.filters.userTypes')}
          items={userTypeItems}
          value={draft.userTypes}
          onChange={(v) => list.setField('userTypes', v.filter(isUserType))}
          className="w-full sm:w-[220px]"
        />
      </FilterForm>
      {query.isError && !query.data ? (
        <LoadError message={t('locationUsers.error')} onRetry={() => void query.refetch()} />
      ) : (
        <DataTable<LocationContractRow>
          aria-labelledby={headingId}
          columns={columns}
          rows={rows}
          getRowId={(row) => row.id}
          totalNumberOfRecords={query.data?.totalNumberOfRecords ?? 0}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          isLoading={query.isFetching && (query.isPlaceholderData || !query.data)}
          emptyText={t('locationUsers.empty')}
          minWidth={560}
        />
      )}
    </section>
  );
}

function useColumns(): DataTableColumn<LocationContractRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<LocationContractRow>[]>(
    () => [
      {
        id: 'endCustomerId',
        header: t('locationUsers.columns.endCustomerId'),
        cell: (r) => r.endCustomerId,
        noWrap: true,
        fold: 'xl',
      },
      { id: 'name', header: t('locationUsers.columns.name'), cell: (r) => r.name, isRowHeader: true },
      {
        id: 'parkingLotNumbers',
        header: t('locationUsers.columns.parkingLotNumbers'),
        cell: (r) => (r.parkingLotNumbers.length ? r.parkingLotNumbers.join(', ') : '–'),
      },
      {
        id: 'contractStatus',
        header: t('locationUsers.columns.contractStatus'),
        cell: (r) => (
          <StatusBadge color={r.contractStatusMapping.colourCode}>
            <span data-testid="contract-status">{t(contractStatusMessageId(r.contractStatus))}</span>
          </StatusBadge>
        ),
        noWrap: true,
      },
      {
        id: 'billingStatus',
        header: t('locationUsers.columns.billingStatus'),
        cell: (r) => {
          const shown = r.billingStatus ? shownBillingStatuses[r.billingStatus] : undefined;
          return shown ? (
            <StatusBadge tone={shown.tone}>
              <span data-testid="billing-status">{t(shown.key)}</span>
            </StatusBadge>
          ) : null;
        },
        noWrap: true,
        fold: 'lg',
      },
      // Several tags of one contract wrap between them.
      { id: 'rfId', header: t('locationUsers.columns.rfId'), cell: (r) => r.rfId?.split(',').join(', ') ?? '–', fold: 'lg' },
      // The contract id is a long key: last, small, so the readable columns fit a tablet.
      {
        id: 'id',
        header: t('locationUsers.columns.id'),
        cell: (r) => <span className="font-mono text-xs text-muted">{r.id}</span>,
        noWrap: true,
        fold: 'lg',
      },
    ],
    [t],
  );
}
