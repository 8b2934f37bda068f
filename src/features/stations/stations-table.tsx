import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { Key } from 'react-aria-components/Table';
import type { StationListRow } from '../../../contract/stations';
import { useT } from '../../i18n/i18n-context';
import { DataAgeNote } from '../../offline/data-age-note';
import { Button, LinkButton } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { FilterForm, FilterTextField } from '../../ui/filter-form';
import { PagedListTable } from '../../layout/paged-list-table';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { MultiSelect } from '../../ui/multi-select';
import { StatusBadge } from '../../ui/status-badge';
import type { StationListParams } from './api/station-keys';
import { noStationFilters, type StationFilters } from './api/station-search';
import { stationListQueryOptions } from './api/station-queries';
import { locationDropdownQueryOptions, wallboxTypesQueryOptions } from '../locations/api/location-queries';
import { displayConnectorId, statusMessageId } from './station-display';
import { useStationActions } from './use-station-actions';
import { PendingChip } from './components/pending-chip';
import { PendingValue } from '../../offline/pending-value';

export interface StationsTableProps {
  /** The location page (spec 2 §2): the list is restricted to this location and has no location filter. */
  locationId?: string;
  heading: string;
  /** Where filters and paging are kept: the URL on /stationen; without it, component state. */
  list?: ListStateSource<StationFilters>;
}

/**
 * The server-filtered, server-paged connector list with bulk parking-lot and status changes. Used by
 * /stationen and, restricted to one location, by /standorte/{id}.
 */
export function StationsTable({ locationId, heading, list: source }: StationsTableProps) {
  const t = useT();
  const headingId = useId();
  const [selectedKeys, setSelectedKeys] = useState<ReadonlySet<Key>>(new Set());
  const clearSelection = () => setSelectedKeys(new Set());
  // A new page (or new filters) is a new set of rows: the selection does not carry over.
  const list = useListFilters<StationFilters>(noStationFilters, clearSelection, source);
  const { draft, applied, page, size } = list;

  const params: StationListParams = { ...applied, page, size, ...(locationId ? { locationId, locationIds: [] } : {}) };
  const options = stationListQueryOptions(params);
  const query = useQuery(options);
  const locations = useQuery({ ...locationDropdownQueryOptions(), enabled: !locationId });
  const wallboxTypes = useQuery(wallboxTypesQueryOptions());
  const columns = useColumns(!locationId);
  const rows = useMemo(() => query.data?.response ?? [], [query.data]);
  const selected = rows.filter((r) => selectedKeys.has(r.connectorId));

  const locationItems = useMemo(() => (locations.data ?? []).map((l) => ({ id: l.locationId, label: l.locationIdName })), [locations.data]);
  const wallboxItems = useMemo(() => (wallboxTypes.data ?? []).map((w) => ({ id: w.name, label: w.name })), [wallboxTypes.data]);

  const actions = useStationActions(clearSelection);

  return (
    <ListPanel
      heading={heading}
      headingId={headingId}
      note={<DataAgeNote queryKey={options.queryKey} />}
      actions={
        <>
          <Button variant="secondary" onPress={() => actions.openParkingLot(selected)}>
            {t('stations.actions.parkingLot')}
          </Button>
          <Button variant="secondary" onPress={() => actions.openAvailability(selected)}>
            {t('stations.actions.availability')}
          </Button>
        </>
      }
    >
      <FilterForm aria-label={t('stations.list.searchLabel')} onSubmit={list.submit} onReset={list.reset}>
        <FilterTextField
          label={t('stations.filters.cpId')}
          value={draft.cpId}
          onChange={(v) => list.setField('cpId', v)}
          className="w-full sm:w-[200px]"
        />
        <FilterTextField
          label={t('stations.filters.parkingLot')}
          value={draft.addressParkingLot}
          onChange={(v) => list.setField('addressParkingLot', v)}
          className="w-full sm:w-[160px]"
        />
        {!locationId && (
          <MultiSelect
            label={t('stations.filters.locations')}
            items={locationItems}
            value={draft.locationIds}
            onChange={(v) => list.setField('locationIds', v.map(String).sort())}
            className="w-full sm:w-[240px]"
          />
        )}
        <MultiSelect
          label={t('stations.filters.wallboxModels')}
          items={wallboxItems}
          value={draft.wallboxModels}
          onChange={(v) => list.setField('wallboxModels', v.map(String).sort())}
          className="w-full sm:w-[240px]"
        />
      </FilterForm>
      <PagedListTable<StationListRow>
        query={query}
        errorMessage={t('stations.list.error')}
        aria-labelledby={headingId}
        columns={columns}
        getRowId={(row) => row.connectorId}
        page={page}
        pageSize={size}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        selectionMode="multiple"
        selectedKeys={selectedKeys}
        onSelectionChange={setSelectedKeys}
        emptyText={t('stations.list.empty')}
        minWidth={560}
      />
      {actions.elements}
    </ListPanel>
  );
}

function useColumns(showLocation: boolean): DataTableColumn<StationListRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<StationListRow>[]>(() => {
    const columns: DataTableColumn<StationListRow>[] = [
      {
        id: 'connectorId',
        header: t('stations.columns.connectorId'),
        cell: (r) => (
          <LinkButton
            href={`/stationen/${encodeURIComponent(r.connectorId)}`}
            size="sm"
            variant="ghost"
            aria-label={t('stations.list.detailsFor', { connectorId: r.connectorId })}
          >
            {displayConnectorId(r.connectorId)}
          </LinkButton>
        ),
        noWrap: true,
      },
      { id: 'cpId', header: t('stations.columns.cpId'), cell: (r) => r.cpId, isRowHeader: true, noWrap: true },
      { id: 'locationName', header: t('stations.columns.locationName'), cell: (r) => r.locationName ?? '–', fold: 'lg' },
      {
        id: 'parkingLot',
        header: t('stations.columns.parkingLot'),
        cell: (r) => (
          <PendingValue scope={r.connectorId} field="parkingLot" value={r.address.parkingLot}>
            {(lot) => <span data-testid="station-parking-lot">{(lot as string | null) ?? '–'}</span>}
          </PendingValue>
        ),
        noWrap: true,
      },
      { id: 'wallboxModel', header: t('stations.columns.wallboxModel'), cell: (r) => r.wallboxModel, fold: 'lg' },
      {
        id: 'status',
        header: t('stations.columns.status'),
        cell: (r) => (
          <span className="inline-flex flex-wrap items-center gap-1">
            {/* The long 'Verknüpft (Parkplatz hinterlegen)' may wrap, so the table fits a portrait tablet. */}
            <PendingValue scope={r.connectorId} field="connectorStatus" value={r.connectorStatus} marker={false}>
              {(status) => (
                <StatusBadge color={r.connectorStatusMapping.colourCode} wrap>
                  <span data-testid="station-status">{t(statusMessageId(status as typeof r.connectorStatus, r.address.parkingLot))}</span>
                </StatusBadge>
              )}
            </PendingValue>
            <PendingChip connectorId={r.connectorId} />
          </span>
        ),
      },
    ];
    return showLocation ? columns : columns.filter((c) => c.id !== 'locationName');
  }, [t, showLocation]);
}
