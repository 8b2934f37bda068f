import type { QueryKey } from '@tanstack/react-query';
import { formatDate, formatDateTime, formatTime } from '../i18n/format';
import { useIntl, useT } from '../i18n/i18n-context';
import { useDataAge } from './persister';
import { useOnlineStatus } from './online-status';
import { cx } from '../ui/class-names';
import { relativeAge } from './data-age';

/** When the data was fetched: the time alone today, date and time before. */
export function fetchedAt(updatedAt: number, now: number): string {
  return formatDate(updatedAt) === formatDate(now) ? formatTime(updatedAt) : formatDateTime(updatedAt);
}

/**
 * 'Stand: 14:05 (vor 5 Minuten)' when what the screen shows did not come fresh from the server
 * (restored from the offline cache, or the last refresh failed or waits for the network), with
 * 'Offline' in front while the device is offline, so cached data never reads as live. Silent
 * otherwise.
 */
export function DataAgeNote({ queryKey, className }: { queryKey: QueryKey; className?: string }) {
  const t = useT();
  const intl = useIntl();
  const online = useOnlineStatus();
  const age = useDataAge(queryKey);
  if (!age.fromCache || age.ageMs === null || age.updatedAt === null) return null;
  const { value, unit } = relativeAge(age.ageMs);
  const values = {
    time: fetchedAt(age.updatedAt, age.updatedAt + age.ageMs),
    age: intl.formatRelativeTime(value, unit, { numeric: 'auto' }),
  };
  return (
    <p
      data-testid="data-age"
      className={cx('inline-flex items-center gap-1.5 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm text-fg', className)}
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-warning" />
      {t(online ? 'app.dataAge' : 'app.dataAgeOffline', values)}
    </p>
  );
}
