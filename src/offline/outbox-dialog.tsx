import { useState } from 'react';
import { useT } from '../i18n/i18n-context';
import { formatDateTime, formatTime } from '../i18n/format';
import { Button, LinkButton } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { StatusBadge, type StatusTone } from '../ui/status-badge';
import { useOutbox, useOutboxInstance } from './outbox-react';
import type { OutboxState, OutboxWrite } from './outbox-write';
import { failureText, formPath, writeKindName, writeLabel } from './write-kinds';

const stateTone: Record<OutboxState, StatusTone> = {
  pending: 'warning',
  sending: 'info',
  done: 'success',
  failed: 'danger',
  'waiting-for-sign-in': 'warning',
};

function Reason({ write }: { write: OutboxWrite }) {
  const t = useT();
  const blocker = useOutboxInstance().blockerOf(write);
  const error = write.lastError;
  if (write.state === 'waiting-for-sign-in') return <p className="text-sm">{t('outbox.waitingHint')}</p>;
  if (blocker) return <p className="text-sm">{t('outbox.blockedBy', { refused: writeLabel(blocker, t) })}</p>;
  if (!error || write.state === 'done' || write.state === 'sending') return null;
  return (
    <div className="flex flex-col gap-0.5 text-sm">
      <p className={write.state === 'failed' ? 'text-danger' : undefined}>{t('outbox.reason', { message: failureText(write, t) })}</p>
      {write.state === 'pending' && write.nextAttemptAt > 0 && (
        <p className="text-muted">{t('outbox.nextAttempt', { time: formatTime(write.nextAttemptAt) })}</p>
      )}
    </div>
  );
}

function WriteItem({
  write,
  onRetry,
  onDiscard,
  onReopen,
}: {
  write: OutboxWrite;
  onRetry: () => void;
  onDiscard: () => Promise<unknown>;
  /** The form opens on its screen: the dialog gets out of its way (also when only the hash changes). */
  onReopen: () => void;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const canRetry = write.state === 'failed' || write.state === 'waiting-for-sign-in' || (write.state === 'pending' && write.attempts > 0);
  const canDiscard = write.state !== 'sending' && write.state !== 'done';
  const label = writeLabel(write, t);
  // A refused write is made again on its screen, where the form shows the current state.
  const reopen = write.state === 'failed' ? formPath(write) : null;
  return (
    <li data-state={write.state} className="flex flex-col gap-2 border-b border-border py-3 last:border-b-0">
      <div className="flex flex-wrap items-start gap-2">
        <div className="flex min-w-0 flex-1 flex-col">
          <span className="font-medium">{label}</span>
          <span className="text-sm text-muted">
            {writeKindName(write, t)} · {t('outbox.createdAt', { time: formatDateTime(write.createdAt) })}
            {write.attempts > 0 && ` · ${t('outbox.attempts', { count: write.attempts })}`}
          </span>
        </div>
        <StatusBadge tone={stateTone[write.state]}>{t(`outbox.state.${write.state}`)}</StatusBadge>
      </div>
      <Reason write={write} />
      {(canRetry || canDiscard || reopen) && !confirming && (
        <div className="flex flex-wrap gap-2">
          {canRetry && (
            <Button size="sm" variant="secondary" onPress={onRetry} aria-label={`${t('outbox.retry')}: ${label}`}>
              {t('outbox.retry')}
            </Button>
          )}
          {reopen && (
            <LinkButton size="sm" variant="secondary" href={reopen} onPress={onReopen} aria-label={`${t('outbox.reopen')}: ${label}`}>
              {t('outbox.reopen')}
            </LinkButton>
          )}
          {canDiscard && (
            <Button size="sm" variant="ghost" onPress={() => setConfirming(true)} aria-label={`${t('outbox.discard')}: ${label}`}>
              {t('outbox.discard')}
            </Button>
          )}
        </div>
      )}
      {confirming && (
        <div
          role="group"
          aria-label={t('outbox.discardConfirm')}
          className="flex flex-wrap items-center gap-2 rounded-md bg-danger-soft p-2"
        >
          <p className="flex-1 text-sm">{t('outbox.discardConfirm')}</p>
          <Button size="sm" variant="secondary" autoFocus onPress={() => setConfirming(false)}>
            {t('outbox.keep')}
          </Button>
          <Button
            size="sm"
            variant="danger"
            onPress={async () => {
              await onDiscard();
              setConfirming(false);
            }}
          >
            {t('outbox.discardConfirmAction')}
          </Button>
        </div>
      )}
    </li>
  );
}

export interface OutboxDialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}

/** Every queued write with its state and reason; failed ones can be retried or discarded. */
export function OutboxDialog({ isOpen, onOpenChange }: OutboxDialogProps) {
  const t = useT();
  const { writes, retry, discard } = useOutbox();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t('outbox.title')} size="lg">
      <p className="mb-2 text-sm text-muted">{t('outbox.intro')}</p>
      {writes.length === 0 ? (
        <p className="py-4">{t('outbox.empty')}</p>
      ) : (
        <ul aria-label={t('outbox.title')}>
          {writes.map((write) => (
            <WriteItem
              key={write.id}
              write={write}
              onRetry={() => void retry(write.id)}
              onDiscard={() => discard(write.id)}
              onReopen={() => onOpenChange(false)}
            />
          ))}
        </ul>
      )}
    </Dialog>
  );
}
