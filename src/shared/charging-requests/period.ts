/** The charging-request period rule (spec 1 §2, spec 2 §2), shared by every table of charging requests: cockpit, station detail, user detail. */
import { CHARGING_LABEL_STATUSES, EARLY_STATUSES } from '../../../contract/cockpit';
import type { ChargingRequestStatus } from '../../../contract/enums';
import { formatDate, formatDateTime, formatTime, toDate, type DateInput } from '../../i18n/format';

/**
 * What the period column shows (spec 1 §2):
 * - `start`: early statuses (not charging yet) show only the start, followed by 'Uhr' in German;
 * - `charging`: charging, paused and terminated_request show the start plus a 'charging' label;
 * - `range`: everything else shows start – end. An end on the start's day shows only its time;
 *   a missing end shows the start alone (`ended`).
 */
export type PeriodDisplay =
  | { kind: 'start'; start: string }
  | { kind: 'charging'; start: string }
  | { kind: 'range'; start: string; end: string }
  /** A request that ended without an end time on record: the start alone, not 'start – –'. */
  | { kind: 'ended'; start: string };

export type PeriodKind = 'start' | 'charging' | 'range';

export function periodKind(status: ChargingRequestStatus): PeriodKind {
  if (EARLY_STATUSES.includes(status)) return 'start';
  if (CHARGING_LABEL_STATUSES.includes(status)) return 'charging';
  return 'range';
}

export function periodDisplay(row: { status: ChargingRequestStatus; startDate: DateInput; endDate: DateInput }): PeriodDisplay {
  const kind = periodKind(row.status);
  const start = formatDateTime(row.startDate);
  if (kind !== 'range') return { kind, start };
  const startDay = toDate(row.startDate);
  const endDay = toDate(row.endDate);
  if (!endDay) return { kind: 'ended', start };
  const sameDay = startDay && endDay && formatDate(startDay) === formatDate(endDay);
  return {
    kind,
    start,
    end: sameDay ? formatTime(endDay) : formatDateTime(row.endDate),
  };
}
