import { useEffect, useRef, useState } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from '../ui/button';
import { showNotice } from '../ui/notices';
import { cx } from '../ui/class-names';
import { useOutbox, useOutboxInstance } from './outbox-react';
import { OutboxDialog } from './outbox-dialog';
import { useNavigate } from '../ui/navigation';
import { formPath, writeLabel } from './write-kinds';
import type { OutboxWrite } from './outbox-write';

const OutboxIcon = () => (
  <svg
    aria-hidden="true"
    width="20"
    height="20"
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth="2"
    strokeLinecap="round"
    strokeLinejoin="round"
  >
    <path d="M22 12h-6l-2 3h-4l-2-3H2" />
    <path d="M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z" />
  </svg>
);

/** Top-bar entry to the outbox: count of writes not yet through, red when one failed. */
export function OutboxButton() {
  const t = useT();
  const { counts } = useOutbox();
  const [open, setOpen] = useState(false);
  const lastFailed = useRef(counts.failed);

  // A write that fails while the user looks elsewhere must not go unnoticed.
  useEffect(() => {
    if (counts.failed > lastFailed.current) {
      showNotice({
        id: 'outbox-failed',
        tone: 'error',
        message: t('outbox.notice.failed', { count: counts.failed }),
        action: { label: t('outbox.notice.show'), onAction: () => setOpen(true) },
      });
    }
    lastFailed.current = counts.failed;
  }, [counts.failed, t]);

  useBlockedNotice(() => setOpen(true));

  return (
    <>
      <Button variant="ghost" aria-label={t('outbox.buttonLabel', { count: counts.open })} onPress={() => setOpen(true)}>
        <OutboxIcon />
        <span className="hidden sm:inline">{t('outbox.button')}</span>
        {counts.open > 0 && (
          <span
            aria-hidden="true"
            data-testid="outbox-count"
            className={cx(
              'inline-flex min-w-6 items-center justify-center rounded-full px-1.5 text-xs font-semibold',
              counts.failed > 0 ? 'bg-danger text-primary-fg' : 'bg-warning-soft text-warning',
            )}
          >
            {counts.open}
          </span>
        )}
      </Button>
      <OutboxDialog isOpen={open} onOpenChange={setOpen} />
    </>
  );
}

/**
 * A change saved behind an earlier change of the same entity that the server refused cannot go
 * until the user fixed or discarded the refused one: say so when it is saved (not 'sent when you
 * are online', which would never come true), with the way to the refused change's form.
 */
function useBlockedNotice(openOutbox: () => void) {
  const t = useT();
  const outbox = useOutboxInstance();
  const { writes } = useOutbox();
  const navigate = useNavigate();
  const announced = useRef<Set<string> | null>(null);
  useEffect(() => {
    const blocked = new Map<string, OutboxWrite>();
    for (const w of writes) {
      const blocker = outbox.blockerOf(w);
      if (blocker) blocked.set(w.id, blocker);
    }
    // Writes held back already when the page opened were announced before (or are in the outbox list).
    const known = announced.current ?? new Set(blocked.keys());
    announced.current = known;
    for (const [id, blocker] of blocked) {
      if (known.has(id)) continue;
      known.add(id);
      const fix = formPath(blocker);
      showNotice({
        id: 'outbox-blocked',
        tone: 'warning',
        message: t('outbox.notice.blocked', { refused: writeLabel(blocker, t) }),
        action: {
          label: t(fix ? 'outbox.reopen' : 'outbox.notice.show'),
          onAction: () => (fix && navigate ? navigate(fix) : openOutbox()),
        },
      });
    }
  }, [writes, outbox, navigate, t, openOutbox]);
}
