import { useMutation, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { OperationRecord, StationOcpp } from '../../../../contract/ocpp';
import type { StationDetail } from '../../../../contract/stations';
import { useSession } from '../../../auth/session-context';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { isWaitingOffline, OfflineUnavailable } from '../../../layout/offline-unavailable';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { lazyDialog, useDialogOpener } from '../../../ui/lazy-dialog';
import { LoadError } from '../../../ui/load-error';
import { ActionMenu } from '../../../ui/menu';
import { Spinner } from '../../../ui/spinner';
import { StatusBadge } from '../../../ui/status-badge';
import { stationOcppQueryOptions, stationOperationMutation } from '../api/station-ocpp-queries';
import {
  keysToAskAgain,
  operationFailure,
  operationStatusTone,
  operationTypeMessageId,
  stationWord,
  type OperationBlock,
} from '../station-operations';
import { useStationOperations } from '../use-station-operations';
import { ConfigurationTable } from './configuration-table';
import { Facts, HeaderCells } from './facts';

const PasswordDialog = lazyDialog(() => import('./station-password-dialog').then((m) => m.StationPasswordDialog));

/**
 * The station's OCPP side on its detail (issue 27): boot data and connection with the operations
 * menu, the configuration it last reported with 'ask the station again', and the operation history.
 * Every operation refreshes all of it (stationOperationMutation's refreshes), live events too.
 */
export function StationOcppPanel({ station }: { station: StationDetail }) {
  const t = useT();
  const query = useQuery(stationOcppQueryOptions(station.connectorId));
  const ops = useStationOperations(station);
  const ocpp = query.data;
  if (!ocpp) {
    if (isWaitingOffline(query)) return <OfflineUnavailable />;
    if (query.isError) return <LoadError message={t('ocpp.loadError')} onRetry={() => void query.refetch()} />;
    return <Spinner label={t('ocpp.loading')} />;
  }
  return (
    <>
      <div className="grid gap-4 lg:grid-cols-2">
        <StationCard ocpp={ocpp} station={station} ops={ops} />
        <ConfigurationCard ocpp={ocpp} station={station} block={ops.block} onAsk={() => ops.open('GET_CONFIGURATION')} />
      </div>
      <HistoryCard operations={ocpp.operations} />
      {ops.elements}
    </>
  );
}

const orDash = (value: string | null | undefined) => value || '–';

/** Why the operations cannot be asked for now, said next to them. */
function BlockReason({ block, id }: { block: OperationBlock | null; id: string }) {
  const t = useT();
  if (!block) return null;
  return (
    <p id={id} role="status" className="text-sm text-warning">
      {t(`ocpp.block.${block}`)}
    </p>
  );
}

function StationCard({ ocpp, station, ops }: { ocpp: StationOcpp; station: StationDetail; ops: ReturnType<typeof useStationOperations> }) {
  const t = useT();
  const f = useFormat();
  const { isAdmin } = useSession();
  const password = useDialogOpener();
  const reasonId = useId();
  const boot = ocpp.boot;
  const status = ocpp.ocppStatus;
  return (
    <Card
      title={t('ocpp.station.title')}
      aria-label={t('ocpp.station.title')}
      actions={
        <ActionMenu
          label={t('ocpp.operations.menu')}
          isDisabled={!!ops.block}
          items={ops.types.map((type) => ({ id: type, label: t(operationTypeMessageId(type)) }))}
          onAction={(id) => ops.open(id as (typeof ops.types)[number])}
        />
      }
    >
      <div className="flex flex-col gap-3">
        <BlockReason block={ops.block} id={reasonId} />
        <Facts
          entries={[
            [
              t('ocpp.station.connection'),
              <StatusBadge key="c" tone={ocpp.connected ? 'success' : 'neutral'}>
                {t(ocpp.connected ? 'ocpp.station.connected' : 'ocpp.station.notConnected')}
              </StatusBadge>,
            ],
            [t('ocpp.station.vendor'), orDash(boot?.vendor)],
            [t('ocpp.station.model'), orDash(boot?.model)],
            [t('ocpp.station.serialNumber'), orDash(boot?.serialNumber)],
            [t('ocpp.station.firmware'), orDash(boot?.firmwareVersion)],
            [t('ocpp.station.bootedAt'), boot?.bootedAt ? f.dateTime(boot.bootedAt) : '–'],
            [t('ocpp.station.lastSeen'), ocpp.lastSeenAt ? f.dateTime(ocpp.lastSeenAt) : t('ocpp.station.neverSeen')],
            [
              t('ocpp.station.ocppStatus'),
              status ? (
                <span key="s" data-testid="ocpp-status">
                  {[status.status, status.errorCode !== 'NoError' ? status.errorCode : null, status.info].filter(Boolean).join(' · ')}
                </span>
              ) : (
                '–'
              ),
            ],
            [
              t('ocpp.station.password'),
              <span key="p" className="flex flex-wrap items-center gap-2">
                {t(ocpp.hasPassword ? 'ocpp.station.passwordSet' : 'ocpp.station.passwordNone')}
                {isAdmin ? (
                  <Button variant="secondary" onPress={password.open}>
                    {t(ocpp.hasPassword ? 'ocpp.password.rotate' : 'ocpp.password.set')}
                  </Button>
                ) : null}
              </span>,
            ],
          ]}
        />
      </div>
      <PasswordDialog
        key={`pw-${password.opening}`}
        opener={password}
        connectorId={station.connectorId}
        cpId={station.cpId}
        hasPassword={ocpp.hasPassword}
      />
    </Card>
  );
}

function ConfigurationCard({
  ocpp,
  station,
  block,
  onAsk,
}: {
  ocpp: StationOcpp;
  station: StationDetail;
  block: OperationBlock | null;
  onAsk: () => void;
}) {
  const t = useT();
  const f = useFormat();
  const ask = useMutation(stationOperationMutation());
  const reasonId = useId();
  const keys = ocpp.configuration.map((k) => k.key);
  const askAgain = () =>
    keys.length
      ? ask.mutate({
          connectorOperationType: 'GET_CONFIGURATION',
          cpId: station.cpId,
          connectorId: station.connectorId,
          key: keysToAskAgain(keys),
        })
      : onAsk();
  return (
    <Card
      title={t('ocpp.configuration.title')}
      aria-label={t('ocpp.configuration.title')}
      actions={
        <Button
          variant="secondary"
          onPress={askAgain}
          isPending={ask.isPending}
          isDisabled={!!block}
          aria-describedby={block ? reasonId : undefined}
        >
          {t(keys.length ? 'ocpp.configuration.askAgain' : 'ocpp.configuration.ask')}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <BlockReason block={block} id={reasonId} />
        {ask.isPending ? (
          <p role="status" className="text-muted">
            {t('ocpp.dialog.waiting')}
          </p>
        ) : null}
        {ask.isError ? (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-danger">
            {t(operationFailure(ask.error).id, operationFailure(ask.error).values)}
          </p>
        ) : null}
        {ocpp.configuration.length ? (
          <>
            <p className="text-sm text-muted">
              {t('ocpp.configuration.reportedAt', { at: ocpp.configurationReportedAt ? f.dateTime(ocpp.configurationReportedAt) : '–' })}
            </p>
            <ConfigurationTable keys={ocpp.configuration} label={t('ocpp.configuration.title')} />
          </>
        ) : (
          <p className="text-muted">{t('ocpp.configuration.notYet')}</p>
        )}
      </div>
    </Card>
  );
}

function HistoryCard({ operations }: { operations: readonly OperationRecord[] }) {
  const t = useT();
  const f = useFormat();
  return (
    <Card title={t('ocpp.history.title')} aria-label={t('ocpp.history.title')}>
      {operations.length === 0 ? (
        <p className="text-muted">{t('ocpp.history.empty')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[640px] border-collapse text-sm" aria-label={t('ocpp.history.title')}>
            <thead className="text-muted">
              <HeaderCells
                className="px-2 py-2 text-start font-semibold"
                labels={[
                  t('ocpp.history.requestedAt'),
                  t('ocpp.history.operation'),
                  t('ocpp.history.requestedBy'),
                  t('ocpp.history.status'),
                  t('ocpp.history.answer'),
                ]}
              />
            </thead>
            <tbody>
              {operations.map((o) => (
                <tr key={o.operationId} className="border-t border-border align-top" data-testid="ocpp-history-row">
                  <td className="px-2 py-2 whitespace-nowrap tabular-nums">{f.dateTime(o.requestedAt)}</td>
                  <th scope="row" className="px-2 py-2 text-start font-normal">
                    {t(operationTypeMessageId(o.connectorOperationType))}
                  </th>
                  <td className="px-2 py-2 break-all">{o.requestedBy}</td>
                  <td className="px-2 py-2">
                    <StatusBadge tone={operationStatusTone[o.status]}>{t(`ocpp.status.${o.status}`)}</StatusBadge>
                  </td>
                  <td className="px-2 py-2">
                    {stationWord(t, o.stationStatus) ?? o.errorCode}
                    {o.answeredAt ? <span className="block text-muted tabular-nums">{f.dateTime(o.answeredAt)}</span> : '–'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
