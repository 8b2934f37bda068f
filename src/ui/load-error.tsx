import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { cx } from './class-names';

/**
 * A failed load with nothing to show instead: what failed, and a way to try again. 'danger' for a
 * part of a page (a table, the KPIs); 'warning' for a whole page ('server again', spec 2 §8).
 */
export function LoadError({ message, onRetry, tone = 'danger' }: { message: string; onRetry: () => void; tone?: 'danger' | 'warning' }) {
  const t = useT();
  return (
    <div
      role="alert"
      className={cx(
        'flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-2 text-fg',
        tone === 'danger' ? 'border-danger bg-danger-soft' : 'border-warning bg-warning-soft',
      )}
    >
      <span>{message}</span>
      <Button variant="secondary" size="sm" onPress={onRetry}>
        {t('ui.common.retry')}
      </Button>
    </div>
  );
}
