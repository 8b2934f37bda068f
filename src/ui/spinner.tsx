import { useT } from '../i18n/i18n-context';
import { cx } from './class-names';

export interface SpinnerProps {
  /** Accessible name; defaults to 'Laden…'. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  /** Show the label next to the spinner as well. */
  showLabel?: boolean;
  className?: string;
}

const sizes = { sm: 'size-4 border-2', md: 'size-8 border-[3px]', lg: 'size-12 border-4' } as const;

/** Indeterminate progress with an accessible name (role=progressbar; no value while indeterminate). */
export function Spinner({ label, size = 'md', showLabel = false, className }: SpinnerProps) {
  const t = useT();
  const name = label ?? t('ui.common.loading');
  return (
    <div role="progressbar" aria-label={name} className={cx('inline-flex items-center gap-3 text-muted', className)}>
      <span
        aria-hidden="true"
        className={cx(
          sizes[size],
          'inline-block animate-spin rounded-full border-border border-t-primary motion-reduce:animate-[spin_2s_linear_infinite]',
        )}
      />
      {showLabel && <span>{name}</span>}
    </div>
  );
}

export interface LoadingOverlayProps {
  isVisible: boolean;
  label?: string;
}

/**
 * Full-screen veil while requests run (spec 1 §2). It blocks pointer input; the spinner inside is
 * announced by its progressbar role.
 */
export function LoadingOverlay({ isVisible, label }: LoadingOverlayProps) {
  if (!isVisible) return null;
  return (
    <div data-testid="loading-overlay" className="fixed inset-0 z-[60] flex items-center justify-center bg-bg/70 backdrop-blur-[1px]">
      <div className="rounded-lg bg-surface px-6 py-4 shadow-lg">
        <Spinner size="lg" label={label} showLabel />
      </div>
    </div>
  );
}
