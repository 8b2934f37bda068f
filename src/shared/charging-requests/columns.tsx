import { useMemo, type ReactNode } from 'react';
import type { ChargingRequestRow } from '../../../contract/cockpit';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/i18n-context';
import type { DataTableColumn } from '../../ui/data-table';
import { StatusBadge } from '../../ui/status-badge';
import { periodDisplay } from './period';

/** Header with its unit on a second line, so the amount columns stay narrow. */
function withUnit(label: string, unit: string) {
  return (
    <span className="flex flex-col leading-tight">
      <span>{label}</span>
      <span className="font-normal text-muted">{unit}</span>
    </span>
  );
}

/** Nine columns must fit a desktop without scrolling: cells use the small type size. */
const small = (content: ReactNode) => <span className="text-sm">{content}</span>;

export type ChargingRequestColumnId =
  'transactionId' | 'endCustomerId' | 'name' | 'address' | 'parkingLot' | 'period' | 'energy' | 'cost' | 'status';

/**
 * The columns of every charging-request table (cockpit, station detail, user detail): spec 1 §3 row,
 * period rule, energy in kWh, cost in EUR, status with its colour. `omit` drops what a screen's
 * context already says (the station detail has no address column: it is one station).
 */
export function useChargingRequestColumns(omit: readonly ChargingRequestColumnId[] = []): DataTableColumn<ChargingRequestRow>[] {
  const t = useT();
  const f = useFormat();
  return useMemo(() => {
    const all: Array<DataTableColumn<ChargingRequestRow> & { id: ChargingRequestColumnId }> = [
      {
        id: 'transactionId',
        header: t('chargingRequest.columns.transactionId'),
        cell: (r) => small(r.transactionId),
        isRowHeader: true,
        noWrap: true,
      },
      {
        id: 'endCustomerId',
        header: t('chargingRequest.columns.endCustomerId'),
        cell: (r) => small(r.endCustomerId ?? '–'),
        noWrap: true,
        fold: 'xl',
      },
      {
        id: 'name',
        header: t('chargingRequest.columns.name'),
        cell: (r) => small(r.customerFullName ?? '–'),
        fold: 'lg',
      },
      {
        id: 'address',
        header: t('chargingRequest.columns.address'),
        fold: 'lg',
        cell: (r) => (
          <span className="flex flex-col text-sm">
            <span className="whitespace-nowrap">{r.locationAddress.street}</span>
            <span className="whitespace-nowrap text-xs text-muted">
              {[r.locationAddress.careOf && `c/o ${r.locationAddress.careOf}`, `${r.locationAddress.zipCode} ${r.locationAddress.city}`]
                .filter(Boolean)
                .join(', ')}
            </span>
          </span>
        ),
      },
      {
        id: 'parkingLot',
        header: t('chargingRequest.columns.parkingLot'),
        cell: (r) => small(r.parkingLot ?? '–'),
        noWrap: true,
        fold: 'xl',
      },
      {
        id: 'period',
        header: t('chargingRequest.columns.period'),
        cell: (r) => small(<Period row={r} />),
      },
      {
        id: 'energy',
        header: withUnit(t('chargingRequest.columns.energy'), t('chargingRequest.columns.energyUnit')),
        label: `${t('chargingRequest.columns.energy')} ${t('chargingRequest.columns.energyUnit')}`,
        cell: (r) => small(f.number(r.energyCharged, 2)),
        align: 'end',
        noWrap: true,
        fold: 'xl',
      },
      {
        id: 'cost',
        header: withUnit(t('chargingRequest.columns.cost'), t('chargingRequest.columns.costUnit')),
        label: `${t('chargingRequest.columns.cost')} ${t('chargingRequest.columns.costUnit')}`,
        cell: (r) => small(f.money(r.sessionCost)),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'status',
        header: t('chargingRequest.columns.status'),
        cell: (r) => (
          <StatusBadge color={r.chargingRequestStatusMapping.colourCode} className="text-xs">
            {/* Long names ('Beenden angefordert') may take two lines rather than push the table wider. */}
            <span className="whitespace-normal">{t(`chargingRequest.status.${r.status}`)}</span>
          </StatusBadge>
        ),
      },
    ];
    return all.filter((c) => !omit.includes(c.id));
    // omit is a literal per screen; its content, not its identity, decides the columns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, f, omit.join()]);
}

function Period({ row }: { row: ChargingRequestRow }) {
  const t = useT();
  const period = periodDisplay(row);
  // A narrow column wraps between date and time ('22.11.2026 / 05:13 Uhr'), never inside them.
  if (period.kind === 'start') return <span>{t('chargingRequest.period.since', { start: period.start })}</span>;
  if (period.kind === 'charging') {
    return (
      <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span>{period.start}</span>
        <span className="inline-flex items-center gap-1 rounded-full bg-primary-soft px-2 py-0.5 text-xs font-medium text-fg">
          <span aria-hidden="true" className="size-1.5 rounded-full bg-primary motion-safe:animate-pulse" />
          {t('chargingRequest.period.charging')}
        </span>
      </span>
    );
  }
  if (period.kind === 'ended') return <span>{period.start}</span>;
  // The message keeps the dash with the start time; a narrow column may wrap between date and time.
  return <span>{t('chargingRequest.period.range', { start: period.start, end: period.end })}</span>;
}
