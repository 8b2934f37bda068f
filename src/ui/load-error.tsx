import { useT } from '../i18n/i18n-context';
import { Button } from './button';

/** A failed load with nothing to show instead: what failed, and a way to try again. */
export function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger bg-danger-soft px-4 py-2 text-fg">
      <span>{message}</span>
      <Button variant="secondary" size="sm" onPress={onRetry}>
        {t('ui.common.retry')}
      </Button>
    </div>
  );
}
