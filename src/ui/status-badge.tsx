import type { ReactNode } from 'react';
import { cx } from './class-names';

export type StatusTone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

const tones: Record<StatusTone, string> = {
  neutral: 'bg-surface-2 text-fg',
  success: 'bg-success-soft text-success',
  warning: 'bg-warning-soft text-warning',
  danger: 'bg-danger-soft text-danger',
  info: 'bg-primary-soft text-fg',
};

export interface StatusBadgeProps {
  children: ReactNode;
  /** Named tone from the theme. Ignored when `color` is given. */
  tone?: StatusTone;
  /**
   * A colour code delivered as data (e.g. '#2e7d32' from a status table). It is shown as a dot next
   * to theme-coloured text, so contrast never depends on the delivered colour.
   */
  color?: string;
  className?: string;
  /** Lets a long label wrap inside a narrow table column instead of widening it. */
  wrap?: boolean;
}

/** Status pill; meaning is always in the text, colour only supports it. */
export function StatusBadge({ children, tone = 'neutral', color, className, wrap = false }: StatusBadgeProps) {
  const custom = color && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color) ? color : undefined;
  return (
    <span
      data-tone={custom ? undefined : tone}
      className={cx(
        'inline-flex items-center gap-1.5 px-2.5 py-0.5 text-sm font-medium',
        wrap ? 'whitespace-normal rounded-xl' : 'whitespace-nowrap rounded-full',
        custom ? 'border border-border bg-surface text-fg' : tones[tone],
        className,
      )}
    >
      {custom && <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: custom }} />}
      {children}
    </span>
  );
}
