import { useEffect, useSyncExternalStore } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { cx } from './class-names';
import { CloseIcon, ErrorIcon, InfoIcon, SuccessIcon, WarningIcon } from './icons';

/**
 * App-level notices ('new version available', 'offline', 'changes synced'). The store lives outside
 * React so non-component code (service-worker registration, the outbox) can post to it.
 */
export type NoticeTone = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  /** Posting again with the same id replaces the notice instead of stacking a copy. */
  id: string;
  message: string;
  tone?: NoticeTone;
  action?: { label: string; onAction: () => void };
  /** Auto-dismiss after this many ms; notices with an action never time out (WCAG 2.2.1). */
  timeout?: number;
  /** Show the × (default true). */
  isDismissable?: boolean;
}

type Listener = () => void;
let notices: readonly Notice[] = [];
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((l) => l());

export function showNotice(notice: Notice): string {
  notices = [...notices.filter((n) => n.id !== notice.id), notice];
  emit();
  return notice.id;
}

export function dismissNotice(id: string): void {
  if (!notices.some((n) => n.id === id)) return;
  notices = notices.filter((n) => n.id !== id);
  emit();
}

export function clearNotices(): void {
  notices = [];
  emit();
}

const subscribe = (l: Listener) => {
  listeners.add(l);
  return () => listeners.delete(l);
};
const snapshot = () => notices;

export const useNotices = (): readonly Notice[] => useSyncExternalStore(subscribe, snapshot, snapshot);

const toneStyle: Record<NoticeTone, { icon: typeof InfoIcon; className: string }> = {
  info: { icon: InfoIcon, className: 'border-primary bg-primary-soft' },
  success: { icon: SuccessIcon, className: 'border-success bg-success-soft' },
  warning: { icon: WarningIcon, className: 'border-warning bg-warning-soft' },
  error: { icon: ErrorIcon, className: 'border-danger bg-danger-soft' },
};

function NoticeItem({ notice }: { notice: Notice }) {
  const t = useT();
  const { id, message, tone = 'info', action, timeout, isDismissable = true } = notice;
  const { icon: Icon, className } = toneStyle[tone];

  useEffect(() => {
    if (!timeout || action) return;
    const timer = setTimeout(() => dismissNotice(id), timeout);
    return () => clearTimeout(timer);
  }, [id, timeout, action]);

  return (
    <div
      role={tone === 'error' ? 'alert' : undefined}
      data-tone={tone}
      className={cx('pointer-events-auto flex items-center gap-3 rounded-lg border-s-4 px-4 py-2 text-fg shadow-lg', className)}
    >
      <Icon className="shrink-0" />
      <p className="min-w-0 flex-1 py-2">{message}</p>
      {action && (
        <Button
          size="sm"
          onPress={() => {
            action.onAction();
            dismissNotice(id);
          }}
        >
          {action.label}
        </Button>
      )}
      {isDismissable && (
        <Button variant="ghost" size="sm" iconOnly aria-label={t('ui.common.dismiss')} onPress={() => dismissNotice(id)}>
          <CloseIcon size={18} />
        </Button>
      )}
    </div>
  );
}

/**
 * Mount once in the shell. A labelled landmark whose live region exists from the start, so notices
 * added later are announced (politely; errors assertively via role=alert).
 */
export function NoticeRegion() {
  const t = useT();
  const items = useNotices();
  return (
    <section
      aria-label={t('ui.notices.region')}
      className="pointer-events-none fixed inset-x-0 bottom-0 z-[70] flex flex-col items-center gap-2 p-3 sm:items-end"
    >
      <div aria-live="polite" aria-relevant="additions text" className="flex w-full max-w-xl flex-col gap-2">
        {items.map((n) => (
          <NoticeItem key={n.id} notice={n} />
        ))}
      </div>
    </section>
  );
}
