import { ListPanel } from '../../ui/card';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { LocationListRow } from '../../../contract/locations';
import { useT } from '../../i18n/i18n-context';
import { Button, LinkButton } from '../../ui/button';
import type { DataTableColumn } from '../../ui/data-table';
import { FilterForm, FilterTextField } from '../../ui/filter-form';
import { PagedListTable } from '../../layout/paged-list-table';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../../auth/session-context';
import type { LocationListParams } from './api/location-keys';
import { noLocationFilters, type LocationFilters } from './api/location-search';
import { locationListQueryOptions } from './api/location-queries';
import { DataAgeNote } from '../../offline/data-age-note';
import { chargePointCount, stationCount } from './location-form';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The wizard (three steps, selects, dialogs) loads only when someone wants to add a location.
const LocationWizard = lazyDialog(() => import('./components/location-wizard').then((m) => m.LocationWizard));

/** /standorte: server-filtered, server-paged location list with the 'add location' wizard. */
/** `list`: the URL's search params of /standorte (filters and paging survive reload, back and links). */
export function LocationListPage({ list: source }: { list: ListStateSource<LocationFilters> }) {
  const t = useT();
  const { isAdmin } = useSession();
  const list = useListFilters<LocationFilters>(noLocationFilters, undefined, source);
  const { draft, applied, page, size } = list;
  const wizard = useDialogOpener();

  const params: LocationListParams = { ...applied, page, size };
  const options = locationListQueryOptions(params);
  const query = useQuery(options);
  const columns = useColumns(isAdmin);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('locations.list.title')}
        description={t('locations.list.intro')}
        className="mb-0"
        actions={<Button onPress={wizard.open}>{t('locations.list.add')}</Button>}
      />
      <ListPanel
        heading={t('locations.list.heading')}
        headingId="locations-table-heading"
        actions={<DataAgeNote queryKey={options.queryKey} />}
      >
        <FilterForm aria-label={t('locations.list.searchLabel')} onSubmit={list.submit} onReset={list.reset}>
          <FilterTextField
            label={t('locations.list.filterName')}
            value={draft.locationName}
            onChange={(v) => list.setField('locationName', v)}
            className="w-full sm:w-[260px]"
          />
          <FilterTextField
            label={t('locations.list.filterAddress')}
            value={draft.address}
            onChange={(v) => list.setField('address', v)}
            className="w-full sm:w-[260px]"
          />
        </FilterForm>
        <PagedListTable<LocationListRow>
          query={query}
          errorMessage={t('locations.list.error')}
          aria-labelledby="locations-table-heading"
          columns={columns}
          getRowId={(row) => row.locationId}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          emptyText={t('locations.list.empty')}
          minWidth={560}
        />
      </ListPanel>
      <LocationWizard opener={wizard} />
    </div>
  );
}

function useColumns(isAdmin: boolean): DataTableColumn<LocationListRow>[] {
  const t = useT();
  return useMemo<DataTableColumn<LocationListRow>[]>(
    () => [
      { id: 'locationId', header: t('locations.columns.id'), cell: (r) => r.locationId, noWrap: true },
      { id: 'locationName', header: t('locations.columns.name'), cell: (r) => r.locationName, isRowHeader: true },
      {
        id: 'address',
        header: t('locations.columns.address'),
        fold: 'lg',
        cell: (r) => (
          <span className="flex flex-col">
            <span>{r.locationAddress.street}</span>
            <span className="text-sm text-muted">{`${r.locationAddress.zipCode} ${r.locationAddress.city}`}</span>
            {r.locationAddress.careOf && (
              <span className="text-sm text-muted">{t('locations.careOfLine', { careOf: r.locationAddress.careOf })}</span>
            )}
          </span>
        ),
      },
      {
        id: 'stations',
        header: t('locations.columns.stations'),
        cell: (r) => stationCount(r.numOfChargingStations, isAdmin),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'chargePoints',
        header: t('dataRules.chargePoints'),
        cell: (r) => chargePointCount(r.numOfChargingStations, isAdmin),
        align: 'end',
        noWrap: true,
        fold: 'lg',
      },
      { id: 'users', header: t('locations.columns.users'), cell: (r) => r.numEndCustomers, align: 'end', noWrap: true, fold: 'lg' },
      {
        id: 'details',
        header: t('locations.columns.details'),
        hideHeader: true,
        cell: (r) => (
          <LinkButton
            href={`/standorte/${encodeURIComponent(r.locationId)}`}
            size="sm"
            aria-label={t('locations.list.detailsFor', { name: r.locationName })}
          >
            {t('locations.list.details')}
          </LinkButton>
        ),
        align: 'end',
      },
    ],
    [t, isAdmin],
  );
}
