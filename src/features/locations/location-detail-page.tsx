import { useQuery } from '@tanstack/react-query';
import type { Key } from 'react-aria-components/Tabs';
import { Suspense, useState, type ReactNode } from 'react';
import { contractStatuses } from '../../../contract/enums';
import type { LocationDetail } from '../../../contract/locations';
import { connectorDisplayStatuses, type ConnectorDisplayStatus } from '../../../contract/stations';
import { useT } from '../../i18n/i18n-context';
import { Card } from '../../ui/card';
import { ActionMenu } from '../../ui/menu';
import { DetailPage } from '../../layout/detail-page';
import { Spinner } from '../../ui/spinner';
import { StatusBadge } from '../../ui/status-badge';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';
import { Tab, TabList, TabPanel, Tabs } from '../../ui/tabs';
import { useSession } from '../../auth/session-context';
import { locationDetailQueryOptions } from './api/location-queries';
import { DataAgeNote } from '../../offline/data-age-note';
import { chargePointCount, stationCount } from './location-form';
import { connectorStatusMessageId, contractStatusMessageId } from '../../shared/connector-status';

const EditLocationWizard = lazyDialog(() => import('./components/edit-location-wizard').then((m) => m.EditLocationWizard));

export interface CreateStationsSlotProps {
  location: LocationDetail;
  isOpen: boolean;
  onClose: () => void;
}

export interface LocationDetailPageProps {
  locationId: string;
  /** The location's stations table (the stations area's list, restricted to this location). */
  renderStations: (location: LocationDetail) => ReactNode;
  /** The location's users table (the users area's list, restricted to this location; rows link to /nutzer/{id}). */
  renderUsers: (location: LocationDetail) => ReactNode;
  /** The station creation wizard with this location preselected and locked. */
  renderCreateStations: (props: CreateStationsSlotProps) => ReactNode;
}

/**
 * /standorte/{id} (spec 2 §2): location, operator, infrastructure and user status counts, EMS, the
 * Actions menu, and a toggle between the location's stations and its users.
 */
export function LocationDetailPage({ locationId, renderStations, renderUsers, renderCreateStations }: LocationDetailPageProps) {
  const t = useT();
  const options = locationDetailQueryOptions(locationId);
  const query = useQuery(options);
  const edit = useDialogOpener();
  const createStations = useDialogOpener();
  const [view, setView] = useState<Key>('stations');

  return (
    <DetailPage
      query={query}
      messages="locations.detail"
      backHref="/standorte"
      header={(location) => ({
        title: location.locationName,
        description: t('locations.detail.subtitle', { id: location.locationId }),
        actions: (
          <>
            <DataAgeNote queryKey={options.queryKey} />
            <ActionMenu
              items={[
                { id: 'edit', label: t('locations.detail.edit') },
                { id: 'create-stations', label: t('locations.detail.createStations') },
              ]}
              onAction={(id) => (id === 'edit' ? edit.open() : createStations.open())}
            />
          </>
        ),
      })}
    >
      {(location) => (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            <LocationInfo location={location} />
            <OperatorInfo location={location} />
            <Infrastructure location={location} />
            <Users location={location} />
          </div>
          <Tabs selectedKey={view} onSelectionChange={setView}>
            <TabList aria-label={t('locations.detail.viewLabel')}>
              <Tab id="stations">{t('locations.detail.stationsTab')}</Tab>
              <Tab id="users">{t('locations.detail.usersTab')}</Tab>
            </TabList>
            <TabPanel id="stations">{renderStations(location)}</TabPanel>
            <TabPanel id="users">
              <Suspense
                fallback={
                  <div className="flex min-h-32 items-center justify-center">
                    <Spinner showLabel />
                  </div>
                }
              >
                {renderUsers(location)}
              </Suspense>
            </TabPanel>
          </Tabs>
          <EditLocationWizard opener={edit} location={location} />
          {createStations.wasOpened &&
            renderCreateStations({
              location,
              isOpen: createStations.isOpen,
              onClose: createStations.close,
            })}
        </>
      )}
    </DetailPage>
  );
}

function Facts({ entries }: { entries: Array<[string, ReactNode]> }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2">
      {entries.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function LocationInfo({ location }: { location: LocationDetail }) {
  const t = useT();
  const a = location.locationAddress;
  return (
    <Card title={t('locations.detail.locationInfo')} aria-label={t('locations.detail.locationInfo')}>
      <Facts
        entries={[
          [t('locations.columns.id'), location.locationId],
          [t('locations.fields.locationName'), location.locationName],
          [t('locations.fields.street'), a.street],
          [t('locations.fields.careOf'), a.careOf || '–'],
          [t('locations.fields.zipCity'), `${a.zipCode} ${a.city}`],
        ]}
      />
    </Card>
  );
}

function OperatorInfo({ location }: { location: LocationDetail }) {
  const t = useT();
  const op = location.operatorDetail;
  return (
    <Card title={t('locations.detail.operatorInfo')} aria-label={t('locations.detail.operatorInfo')}>
      <Facts
        entries={[
          [t('locations.fields.operatorId'), op.cpoId],
          [t('locations.fields.operatorName'), op.cpoName],
          [t('locations.fields.address'), `${op.cpoAddress.street}, ${op.cpoAddress.zipCode} ${op.cpoAddress.city}`],
        ]}
      />
    </Card>
  );
}

function StatusCounts({
  summary,
  label,
  labelOf,
}: {
  summary: LocationDetail['contractMetrics']['statusesSummary'];
  label: string;
  labelOf: (key: string) => string;
}) {
  const t = useT();
  const entries = Object.entries(summary).filter(([, v]) => v.number > 0);
  if (entries.length === 0) return <p className="text-muted">{t('locations.detail.noStatuses')}</p>;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-2">
      {entries.map(([key, v]) => (
        <li key={key}>
          <StatusBadge color={v.color}>{t('locations.detail.statusCount', { status: labelOf(key), count: v.number })}</StatusBadge>
        </li>
      ))}
    </ul>
  );
}

function Infrastructure({ location }: { location: LocationDetail }) {
  const t = useT();
  const { isAdmin } = useSession();
  const m = location.chargingInfrastructureMetrics;
  const known = new Set<string>(connectorDisplayStatuses);
  const total = stationCount(
    { totalNrChargingStation: m.totalChargingStations, removedNrChargingStation: m.removedChargingStations },
    isAdmin,
  );
  const points = chargePointCount({ totalNrChargePoints: m.totalChargePoints, removedNrChargePoints: m.removedChargePoints }, isAdmin);
  const facts: Array<[string, ReactNode]> = [[t('locations.detail.stationsTotal'), total]];
  if (isAdmin) facts.push([t('locations.detail.stationsRemoved'), m.removedChargingStations]);
  facts.push([t('dataRules.chargePoints'), points]);
  if (isAdmin) facts.push([t('dataRules.chargePointsRemoved'), m.removedChargePoints]);
  // A copy kept on the device before the field existed has none until it is refreshed.
  const requested = location.requestedInfrastructure ?? [];
  facts.push([
    t('dataRules.requested'),
    requested.length === 0 ? (
      t('dataRules.requestedNone')
    ) : (
      <ul className="flex flex-col" data-testid="requested-infrastructure">
        {requested.map((r) => (
          <li key={r.chargingStationModel}>
            {t('dataRules.requestedRow', { model: r.chargingStationModel, count: r.numOfChargingStations })}
          </li>
        ))}
      </ul>
    ),
  ]);
  facts.push(
    [
      t('locations.fields.emsModel'),
      location.isEmsConnected && location.emsModel ? location.emsModel : t('locations.detail.emsNotConnected'),
    ],
    [t('locations.fields.emsId'), location.emsId || '–'],
  );
  return (
    <Card title={t('locations.detail.infrastructure')} aria-label={t('locations.detail.infrastructure')}>
      <div className="flex flex-col gap-3">
        <Facts entries={facts} />
        <StatusCounts
          summary={m.statusesSummary}
          label={t('locations.detail.infrastructureStatuses')}
          labelOf={(key) => (known.has(key) ? t(connectorStatusMessageId(key as ConnectorDisplayStatus)) : key)}
        />
      </div>
    </Card>
  );
}

function Users({ location }: { location: LocationDetail }) {
  const t = useT();
  const known = new Set<string>(contractStatuses);
  const m = location.contractMetrics;
  return (
    <Card title={t('locations.detail.users')} aria-label={t('locations.detail.users')}>
      <div className="flex flex-col gap-3">
        <Facts entries={[[t('locations.detail.usersTotal'), m.totalContractStatuses]]} />
        <StatusCounts
          summary={m.statusesSummary}
          label={t('locations.detail.userStatuses')}
          labelOf={(key) => (known.has(key) ? t(contractStatusMessageId(key)) : key)}
        />
      </div>
    </Card>
  );
}
