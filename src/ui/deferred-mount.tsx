import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { cx } from './class-names';
import { ChevronDownIcon } from './icons';
import { fieldWidthClassName, inputClassName } from './field';

/**
 * Whether heavy widgets mount after their screen's first paint (react-aria's selects build their
 * collection, hidden native select and popover state on mount). Off in unit tests, which read the
 * widgets at once; `deferred-mount.test.tsx` turns it on.
 */
export const deferredMount = { enabled: import.meta.env.MODE !== 'test' };

/**
 * False on the first render, true once the screen has painted (the frame after mount), as a
 * transition, so input is never held up by it. A list page's warm start then paints its table
 * without waiting for its filter selects (issue 11: /stationen ≤ 600 ms at 4x CPU slowdown).
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(() => !deferredMount.enabled);
  useEffect(() => {
    if (ready) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // requestAnimationFrame runs just before the next paint; the timeout queued there, just after it.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setReady(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready]);
  return ready;
}

/**
 * What a select looks like before it mounts: its label and closed trigger with the same text, so
 * nothing moves when the real one replaces it a frame later. Hidden from assistive technology and
 * inert for that frame; the real select is the one that is read and used.
 */
export function SelectTwin({
  label,
  text,
  isPlaceholder,
  addon,
  description,
  isRequired,
  className,
  width,
}: {
  label: ReactNode;
  text: ReactNode;
  isPlaceholder: boolean;
  addon?: ReactNode;
  description?: ReactNode;
  isRequired?: boolean;
  className?: string;
  width: 'full' | 'fit' | 'field';
}) {
  return (
    <div
      aria-hidden="true"
      inert
      data-testid="select-twin"
      className={cx('flex flex-col gap-1', width === 'full' ? 'w-full' : width === 'fit' ? 'w-fit' : fieldWidthClassName, className)}
    >
      <span className="text-sm font-medium text-fg">
        {label}
        {isRequired && <span className="ms-0.5 text-danger">*</span>}
      </span>
      <span className={cx(inputClassName, 'flex items-center justify-between gap-2 text-start')}>
        <span className={cx('truncate', isPlaceholder && 'text-muted')}>{text}</span>
        <span className="flex shrink-0 items-center gap-1">
          {addon}
          <ChevronDownIcon className="shrink-0 text-muted" />
        </span>
      </span>
      {description && <span className="text-sm text-muted">{description}</span>}
    </div>
  );
}
