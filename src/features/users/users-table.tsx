import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import type { Key } from 'react-aria-components/Table';
import type { ContractRow } from '../../../contract/contracts';
import { userTypes, type BillStatus } from '../../../contract/enums';
import { useT } from '../../i18n/i18n-context';
import { PagedListTable } from '../../layout/paged-list-table';
import type { SubmitOutcome } from '../../offline/outbox';
import { DataAgeNote } from '../../offline/data-age-note';
import { contractStatusMessageId } from '../../shared/connector-status';
import { AlertDialog } from '../../ui/alert-dialog';
import { Button, LinkButton } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { FilterForm, FilterTextField } from '../../ui/filter-form';
import { MultiSelect } from '../../ui/multi-select';
import { showNotice } from '../../ui/notices';
import { StatusBadge } from '../../ui/status-badge';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { locationDropdownQueryOptions } from '../locations/api/location-queries';
import { isUserType } from './api/user-keys';
import { noUserFilters, type UserFilters } from './api/user-search';
import { locationUsersQueryOptions, userListQueryOptions } from './api/user-queries';
import { checkPaymentSelection, paymentStatusWrite } from './user-rules';
import { contractScope } from './api/user-writes';
import { PendingValue } from '../../offline/pending-value';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The modal is not part of the first screen: it loads once the table shows.
const PaymentStatusWizard = lazyDialog(() =>
  import('../../shared/payment-status/payment-status-wizard').then((m) => m.PaymentStatusWizard),
);

/** Spec 2 §2: PAID reads Bezahlt, UNPAID Offen; any other bill state leaves the cell empty. */
const shownBillingStatuses: Partial<Record<BillStatus, { key: string; tone: 'success' | 'warning' }>> = {
  PAID: { key: 'users.billingStatus.PAID', tone: 'success' },
  UNPAID: { key: 'users.billingStatus.UNPAID', tone: 'warning' },
};

export interface UsersTableProps {
  heading: string;
  /** The location page: only this location's users, no location filter and no location column. */
  locationId?: string;
  /** Where filters and paging are kept: the URL on /nutzer; without it, component state. */
  list?: ListStateSource<UserFilters>;
}

/**
 * The server-filtered, server-paged users (contracts) table with the bulk payment-status change
 * (spec 2 §2). The one table of /nutzer and of the users tab of /standorte/{id}; rows link to
 * /nutzer/{id}.
 */
export function UsersTable({ heading, locationId, list: source }: UsersTableProps) {
  const t = useT();
  const headingId = useId();
  const [selectedKeys, setSelectedKeys] = useState<ReadonlySet<Key>>(new Set());
  const clearSelection = () => setSelectedKeys(new Set());
  // A new page (or new filters) is a new set of rows: the selection does not carry over.
  const list = useListFilters<UserFilters>(noUserFilters, clearSelection, source);
  const { draft, applied, page, size } = list;

  const options = locationId
    ? locationUsersQueryOptions(locationId, {
        endCustomerId: applied.endCustomerId,
        name: applied.name,
        rfId: applied.rfId,
        userTypes: applied.userTypes.filter(isUserType),
        page,
        size,
      })
    : userListQueryOptions({ ...applied, page, size });
  // Both endpoints answer the same row shape (contract/contracts.ts contractRowSchema).
  const query = useQuery(options as ReturnType<typeof userListQueryOptions>);
  const locations = useQuery({ ...locationDropdownQueryOptions(), enabled: !locationId });
  const columns = useColumns(!locationId);
  const rows = useMemo(() => query.data?.response ?? [], [query.data]);
  const selected = rows.filter((r) => selectedKeys.has(r.id));

  const locationItems = useMemo(() => (locations.data ?? []).map((l) => ({ id: l.locationId, label: l.locationIdName })), [locations.data]);
  // The server accepts exactly these values, so the filter needs no dropdown request (and works offline).
  const userTypeItems = useMemo(() => userTypes.map((u) => ({ id: u, label: t(`users.userTypes.${u}`) })), [t]);

  const [warning, setWarning] = useState<string | null>(null);
  // The rows as the user saw them when opening (their bills go into the write).
  const [frozen, setFrozen] = useState<readonly ContractRow[]>([]);
  const paymentStatus = useDialogOpener();
  useEffect(() => PaymentStatusWizard.preload(), []);

  const openPaymentStatus = () => {
    if (!checkPaymentSelection(selected).ok) {
      setWarning(t('users.payment.noSelection'));
      return;
    }
    setFrozen(selected);
    paymentStatus.open();
  };

  const queued = (outcome: SubmitOutcome) => {
    paymentStatus.close();
    clearSelection();
    // Held back by a refused earlier change: the outbox button says so, with the way to fix it.
    if (outcome === 'blocked') return;
    // Spec 2 §8: success 'payment updated', failure 'server again' (the outbox keeps the refused write with its reason).
    showNotice({
      id: 'payment-status-write',
      tone: outcome === 'saved' ? 'success' : outcome === 'queued' ? 'info' : 'error',
      message: t(outcome === 'saved' ? 'users.payment.updated' : outcome === 'queued' ? 'outbox.notice.queued' : 'errors.serverAgain'),
      timeout: 6_000,
    });
  };

  return (
    <ListPanel
      heading={heading}
      headingId={headingId}
      note={<DataAgeNote queryKey={options.queryKey} />}
      actions={
        <Button variant="secondary" onPress={openPaymentStatus}>
          {t('users.payment.open')}
        </Button>
      }
    >
      <FilterForm aria-label={t('users.list.searchLabel')} onSubmit={list.submit} onReset={list.reset}>
        <FilterTextField
          label={t('users.filters.endCustomerId')}
          value={draft.endCustomerId}
          onChange={(v) => list.setField('endCustomerId', v)}
          className="w-full sm:w-[180px]"
        />
        <FilterTextField
          label={t('users.filters.name')}
          value={draft.name}
          onChange={(v) => list.setField('name', v)}
          className="w-full sm:w-[200px]"
        />
        <FilterTextField
          label={t('users.filters.rfId')}
          value={draft.rfId}
          onChange={(v) => list.setField('rfId', v)}
          className="w-full sm:w-[180px]"
        />
        {!locationId && (
          <MultiSelect
            label={t('users.filters.locations')}
            items={locationItems}
            value={draft.locationIds}
            onChange={(v) => list.setField('locationIds', v.map(String).sort())}
            className="w-full sm:w-[240px]"
          />
        )}
        <MultiSelect
          label={t('users.filters.userTypes')}
          items={userTypeItems}
          value={draft.userTypes}
          onChange={(v) => list.setField('userTypes', v.filter(isUserType).sort())}
          className="w-full sm:w-[220px]"
        />
      </FilterForm>
      <PagedListTable<ContractRow>
        query={query}
        errorMessage={t('users.list.error')}
        aria-labelledby={headingId}
        columns={columns}
        getRowId={(row) => row.id}
        page={page}
        pageSize={size}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        selectionMode="multiple"
        selectedKeys={selectedKeys}
        onSelectionChange={setSelectedKeys}
        emptyText={t('users.list.empty')}
        minWidth={560}
      />
      <PaymentStatusWizard
        key={paymentStatus.opening}
        opener={paymentStatus}
        selected={frozen}
        messages="users.payment"
        write={(changing, status) =>
          paymentStatusWrite(
            frozen.filter((r) => changing.some((c) => c.id === r.id)),
            status,
          )
        }
        onQueued={queued}
      />
      <AlertDialog isOpen={warning !== null} onClose={() => setWarning(null)} variant="warning" title={t('users.payment.warningTitle')}>
        {warning}
      </AlertDialog>
    </ListPanel>
  );
}

function useColumns(showLocation: boolean): DataTableColumn<ContractRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<ContractRow>[]>(() => {
    const columns: DataTableColumn<ContractRow>[] = [
      {
        id: 'name',
        header: t('users.columns.name'),
        cell: (r) => (
          <LinkButton
            href={`/nutzer/${encodeURIComponent(r.id)}`}
            size="sm"
            variant="ghost"
            aria-label={t('users.list.detailsFor', { name: r.name })}
          >
            <PendingValue scope={contractScope(r.contractKey)} field="name" value={r.name} />
          </LinkButton>
        ),
        isRowHeader: true,
      },
      { id: 'endCustomerId', header: t('users.columns.endCustomerId'), cell: (r) => r.endCustomerId, noWrap: true, fold: 'xl' },
      { id: 'location', header: t('users.columns.location'), cell: (r) => r.location ?? '–', fold: 'lg' },
      {
        id: 'parkingLotNumbers',
        header: t('users.columns.parkingLotNumbers'),
        cell: (r) => (
          <PendingValue scope={contractScope(r.contractKey)} field="parkingLotNumbers" value={r.parkingLotNumbers}>
            {(lots) => ((lots as string[]).length ? (lots as string[]).join(', ') : '–')}
          </PendingValue>
        ),
      },
      {
        id: 'contractStatus',
        header: t('users.columns.contractStatus'),
        cell: (r) => (
          <StatusBadge color={r.contractStatusMapping.colourCode} wrap>
            <span data-testid="contract-status">{t(contractStatusMessageId(r.contractStatus))}</span>
          </StatusBadge>
        ),
      },
      {
        id: 'billingStatus',
        header: t('users.columns.billingStatus'),
        cell: (r) => {
          const shown = r.billingStatus ? shownBillingStatuses[r.billingStatus] : undefined;
          return shown ? (
            <StatusBadge tone={shown.tone}>
              <span data-testid="billing-status">{t(shown.key)}</span>
            </StatusBadge>
          ) : null;
        },
        noWrap: true,
      },
      // Several tags of one contract wrap between them.
      { id: 'rfId', header: t('users.columns.rfId'), cell: (r) => r.rfId?.split(',').join(', ') ?? '–', fold: 'lg' },
    ];
    return showLocation ? columns : columns.filter((c) => c.id !== 'location');
  }, [t, showLocation]);
}
