import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { StatusBadge } from '../ui/status-badge';
import { usePendingFor } from './outbox-react';
import type { OutboxWrite } from './outbox-write';
import { valuesSetBy } from './write-kinds';

export type PendingState = 'sending' | 'refused';

export interface PendingField {
  /** The value to show: the one on its way, or the server's when the latest write of it was refused. */
  value: unknown;
  /** Null when no write of this field waits. */
  state: PendingState | null;
}

/**
 * The newest write of `scope` still open that sets `field` decides: waiting or being sent, its
 * value shows (the user sees what they saved, not the server's old value); refused, the server's
 * value shows again, marked, so the roll-back is visible.
 */
export function pendingField(writes: readonly OutboxWrite[], field: string, current: unknown): PendingField {
  for (let i = writes.length - 1; i >= 0; i--) {
    const write = writes[i]!;
    if (write.state === 'done') continue;
    const values = valuesSetBy(write);
    if (!(field in values)) continue;
    return write.state === 'failed' ? { value: current, state: 'refused' } : { value: values[field], state: 'sending' };
  }
  return { value: current, state: null };
}

/** The marker beside a value: 'wird gesendet', or 'nicht gespeichert' after a refusal. */
export function PendingMarker({ state }: { state: PendingState }) {
  const t = useT();
  return (
    <StatusBadge tone={state === 'refused' ? 'danger' : 'warning'} className="ms-2">
      <span data-testid="pending-value">{t(state === 'refused' ? 'offline.pendingValue.refused' : 'offline.pendingValue.sending')}</span>
    </StatusBadge>
  );
}

/**
 * One field of an entity as the screens show it, overlaid with the outbox: the value a write saved
 * on this device and not yet answered by the server, marked 'wird gesendet' (also offline, after a
 * reload); the server's value marked 'nicht gespeichert' once that write was refused. The one piece
 * every screen uses for a value an outbox write changes, so the detail, the lists and the tables
 * never show the old value as if nothing was saved.
 */
export function PendingValue({
  scope,
  field,
  value,
  children,
  marker = true,
}: {
  /** The write's scope: the entity (a connector id, `contract:<key>`). */
  scope: string | null | undefined;
  field: string;
  /** The value as the server last answered. */
  value: unknown;
  /** How a value reads (e.g. a status in words); the value as text without it. */
  children?: (value: unknown) => ReactNode;
  /** False where a marker for the whole entity stands beside it already (a table row's 'ausstehend'). */
  marker?: boolean;
}) {
  const shown = pendingField(usePendingFor(scope), field, value);
  const text = children
    ? children(shown.value)
    : shown.value === null || shown.value === undefined || shown.value === ''
      ? '–'
      : String(shown.value);
  return (
    <>
      {text}
      {marker && shown.state && <PendingMarker state={shown.state} />}
    </>
  );
}
