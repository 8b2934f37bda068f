import type { QueryKey } from '@tanstack/react-query';
import { useIntl, useT } from '../i18n/i18n-context';
import { useDataAge } from './persister';
import { cx } from '../ui/class-names';
import { relativeAge } from './data-age';

/**
 * 'Stand: vor 5 Minuten' when what the screen shows did not come fresh from the server (restored
 * from the offline cache, or the last refresh failed or waits for the network). Silent otherwise.
 */
export function DataAgeNote({ queryKey, className }: { queryKey: QueryKey; className?: string }) {
  const t = useT();
  const intl = useIntl();
  const age = useDataAge(queryKey);
  if (!age.fromCache || age.ageMs === null) return null;
  const { value, unit } = relativeAge(age.ageMs);
  return (
    <p
      data-testid="data-age"
      className={cx('inline-flex items-center gap-1.5 rounded-full bg-warning-soft px-2.5 py-0.5 text-sm text-fg', className)}
    >
      <span aria-hidden="true" className="size-2 rounded-full bg-warning" />
      {t('app.dataAge', { age: intl.formatRelativeTime(value, unit, { numeric: 'auto' }) })}
    </p>
  );
}
