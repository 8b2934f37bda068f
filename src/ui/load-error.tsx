import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { cx } from './class-names';
import { PageHeader } from './page-header';
import { Spinner } from './spinner';

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

/**
 * What a detail page shows before it has its entity: a spinner while loading, or — when the load
 * failed — the page header with its back link and the 'server again' warning with a retry.
 */
export function DetailPageFallback({
  isPending,
  onRetry,
  title,
  backHref,
  backLabel,
}: {
  isPending: boolean;
  onRetry: () => void;
  title: string;
  backHref: string;
  backLabel: string;
}) {
  const t = useT();
  if (isPending) {
    return (
      <div className="flex min-h-48 items-center justify-center">
        <Spinner showLabel />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} backHref={backHref} backLabel={backLabel} className="mb-0" />
      <LoadError tone="warning" message={t('errors.serverAgain')} onRetry={onRetry} />
    </div>
  );
}
