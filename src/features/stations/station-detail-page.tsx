import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { StationDetail } from '../../../contract/stations';
import { useFormat } from '../../i18n/format';
import { useIntl, useT } from '../../i18n/i18n-context';
import { Card } from '../../ui/card';
import { DetailPage } from '../../layout/detail-page';
import { StatusBadge } from '../../ui/status-badge';
import { stationDetailQueryOptions } from './api/station-queries';
import { DataAgeNote } from '../../offline/data-age-note';
import { Facts } from './components/facts';
import { StationOcppPanel } from './components/station-ocpp-panel';
import { StationHistory } from './components/station-history';
import { PendingValue } from '../../offline/pending-value';
import { useStationLive } from './use-station-live';
import { displayConnectorId, heartbeatDisplay, statusColour, statusMessageId } from './station-display';

export interface StationDetailPageProps {
  connectorId: string;
  /**
   * The header's actions slot (assign parking lot, change status, configuration). Rendered next to
   * the data-age note once the station has loaded; receives the loaded station.
   */
  renderActions?: (station: StationDetail) => ReactNode;
}

/** /stationen/{stationId} (spec 2 §2): station info, current status with KPIs, charging history. */
export function StationDetailPage({ connectorId, renderActions }: StationDetailPageProps) {
  const t = useT();
  const options = stationDetailQueryOptions(connectorId);
  const query = useQuery(options);
  useStationLive();

  return (
    <DetailPage
      query={query}
      messages="stationDetail"
      backHref="/stationen"
      header={(station) => ({
        title: t('stationDetail.heading', { cpId: station.cpId, connector: displayConnectorId(station.connectorId) }),
        description: station.locationName ?? undefined,
        actions: (
          <>
            <DataAgeNote queryKey={options.queryKey} />
            {/* Actions menu (assign parking lot, change status, configuration) goes here. */}
            {renderActions?.(station)}
          </>
        ),
      })}
    >
      {(station) => (
        <>
          <div className="grid gap-4 md:grid-cols-2">
            <StationInfo station={station} />
            <CurrentStatus station={station} />
          </div>
          <StationOcppPanel station={station} />
          <StationHistory connectorId={station.connectorId} />
        </>
      )}
    </DetailPage>
  );
}

const orDash = (value: string | null | undefined) => (value ? value : '–');

function StationInfo({ station }: { station: StationDetail }) {
  const t = useT();
  const f = useFormat();
  const a = station.address;
  const zipCity = [a.zipCode, a.city].filter(Boolean).join(' ');
  const address = [a.street, zipCity].filter(Boolean).join(', ');
  return (
    <Card title={t('stationDetail.info.title')} aria-label={t('stationDetail.info.title')}>
      <Facts
        entries={[
          [t('stationDetail.info.stationId'), station.cpId],
          [t('stationDetail.info.connectorId'), displayConnectorId(station.connectorId)],
          [t('stationDetail.info.locationId'), orDash(station.locationId)],
          [t('stationDetail.info.locationName'), orDash(station.locationName)],
          [t('stationDetail.info.address'), orDash(address)],
          [
            t('stationDetail.info.parkingLot'),
            <PendingValue key="lot" scope={station.connectorId} field="parkingLot" value={a.parkingLot}>
              {(lot) => <span data-testid="station-detail-parking-lot">{orDash(lot as string | null)}</span>}
            </PendingValue>,
          ],
          [t('stationDetail.info.wallboxModel'), orDash(station.wallboxModel)],
          [t('stationDetail.info.onlineSince'), f.dateTime(station.onlineSince)],
        ]}
      />
    </Card>
  );
}

function useNow(tickMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);
  return now;
}

function Heartbeat({ value }: { value: string | null }) {
  const t = useT();
  const intl = useIntl();
  const hb = heartbeatDisplay(value, useNow());
  if (hb.kind === 'none') return <span>{t('stationDetail.status.noHeartbeat')}</span>;
  return (
    <span className="flex flex-col">
      <span>{hb.dateTime}</span>
      <span className="text-sm text-muted">{intl.formatRelativeTime(hb.value, hb.unit, { numeric: 'auto' })}</span>
    </span>
  );
}

function CurrentStatus({ station }: { station: StationDetail }) {
  const t = useT();
  const f = useFormat();
  const lot = station.address.parkingLot;
  return (
    <Card title={t('stationDetail.status.title')} aria-label={t('stationDetail.status.title')}>
      <div className="flex flex-col gap-4">
        <Facts
          entries={[
            [
              t('stationDetail.status.status'),
              <PendingValue key="s" scope={station.connectorId} field="connectorStatus" value={station.connectorStatus}>
                {(status) => (
                  <StatusBadge
                    color={statusColour(status as typeof station.connectorStatus, lot, station.connectorStatusMapping.colourCode)}
                  >
                    {/* The long wording ('Verknüpft (Parkplatz hinterlegen)') wraps instead of leaving the card. */}
                    <span className="whitespace-normal">{t(statusMessageId(status as typeof station.connectorStatus, lot))}</span>
                  </StatusBadge>
                )}
              </PendingValue>,
            ],
            [t('stationDetail.status.lastHeartbeat'), <Heartbeat key="h" value={station.lastHeartBeatInterval} />],
          ]}
        />
        {/* Side by side where they fit, else one below the other: a large total never runs out of its tile. */}
        <div className="grid grid-cols-[repeat(auto-fit,minmax(11rem,1fr))] gap-3">
          <Kpi label={t('stationDetail.kpi.totalEnergy')} value={f.kwh(station.totalEnergy)} testId="kpi-energy" />
          <Kpi label={t('stationDetail.kpi.totalRevenue')} value={f.money(station.totalRevenue)} testId="kpi-revenue" />
        </div>
      </div>
    </Card>
  );
}

function Kpi({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div data-testid={testId} className="flex min-w-0 flex-col gap-1 rounded-md bg-surface-2 px-3 py-2">
      <span className="text-sm text-muted">{label}</span>
      <span className="break-words text-xl font-semibold text-fg tabular-nums">{value}</span>
    </div>
  );
}
