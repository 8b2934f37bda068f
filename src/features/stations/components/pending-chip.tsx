import { useT } from '../../../i18n/i18n-context';
import { useOutbox } from '../../../offline/outbox-react';
import { connectorsOf } from '../api/station-writes';
import { StatusBadge } from '../../../ui/status-badge';

/** 'ausstehend' while a connector has queued writes, 'fehlgeschlagen' when one of them failed. */
export function PendingChip({ connectorId }: { connectorId: string }) {
  const t = useT();
  // By the connectors a write changes, not its scope: a batch of lots is one write for several.
  const writes = useOutbox().writes.filter((w) => w.state !== 'done' && connectorsOf(w).includes(connectorId));
  if (writes.length === 0) return null;
  const failed = writes.some((w) => w.state === 'failed');
  return (
    <StatusBadge tone={failed ? 'danger' : 'warning'} className="ms-2">
      <span data-testid="station-pending">{failed ? t('stations.pending.failed') : t('stations.pending.pending')}</span>
    </StatusBadge>
  );
}
