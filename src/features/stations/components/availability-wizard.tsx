import { useState } from 'react';
import { settableConnectorStatuses, type SettableConnectorStatus } from '../../../../contract/stations';
import { useT } from '../../../i18n/i18n-context';
import type { SubmitOutcome } from '../../../offline/outbox';
import { useOutboxInstance } from '../../../offline/outbox-react';
import { connectorStatusMessageId } from '../../../shared/connector-status';
import { RadioGroup } from '../../../ui/radio-group';
import { Wizard } from '../../../ui/wizard';
import { displayConnectorId, statusMessageId } from '../station-display';
import { availabilityWrites, withQueuedVersions, type SelectedConnector } from '../station-rules';

export interface AvailabilityWizardProps {
  isOpen: boolean;
  selected: readonly SelectedConnector[];
  onClose: () => void;
  onQueued: (outcome: SubmitOutcome) => void;
  /** The status to start with (coming back to a refused write). */
  initialStatus?: SettableConnectorStatus;
}

/** Spec 2 §2/§4: set Aktiv (IDLE) or Standby (CONNECTED_UNAVAILABLE); queued in the outbox. */
export function AvailabilityWizard({ isOpen, selected, onClose, onQueued, initialStatus }: AvailabilityWizardProps) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [status, setStatus] = useState<SettableConnectorStatus | null>(initialStatus ?? null);
  const statusLabel = (s: SettableConnectorStatus) => t(connectorStatusMessageId(s));

  // The status each selected connector has now (spec 2 §3 wording); a change to what every one of
  // them already has changes nothing and is refused, as an unchanged parking lot is.
  const current = [...new Set(selected.map((c) => t(statusMessageId(c.connectorStatus, c.address.parkingLot))))];
  const unchanged = status !== null && selected.every((c) => c.connectorStatus === status);

  const submit = async () => {
    if (!status) return;
    const queued = outbox.getSnapshot();
    const writes = availabilityWrites(withQueuedVersions(selected, queued), status, queued);
    onQueued(await outbox.submit(writes));
  };

  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={() => setStatus(null)}
      title={t('stations.availability.title')}
      submitLabel={t('stations.availability.submit')}
      onSubmit={submit}
      size="lg"
      steps={[
        {
          id: 'enter',
          title: t('stations.availability.stepEnter'),
          isValid: status !== null && !unchanged,
          content: (
            <RadioGroup
              label={t('stations.availability.field')}
              description={t('stations.availability.current', { status: current.join(', '), count: current.length })}
              isRequired
              value={status}
              onChange={(v) => setStatus(v as SettableConnectorStatus)}
              items={settableConnectorStatuses.map((s) => ({ id: s, label: statusLabel(s) }))}
              isInvalid={unchanged}
              errorMessage={unchanged ? t('stations.availability.unchanged') : undefined}
            />
          ),
        },
        {
          id: 'confirm',
          title: t('stations.availability.stepConfirm'),
          isValid: status !== null && !unchanged,
          content: (
            <div className="flex flex-col gap-2">
              <p>{status ? t('stations.availability.confirmIntro', { status: statusLabel(status) }) : null}</p>
              <ul className="flex list-disc flex-col gap-1 ps-5">
                {selected.map((c) => (
                  <li key={c.connectorId}>{`${c.cpId} · ${displayConnectorId(c.connectorId)}`}</li>
                ))}
              </ul>
            </div>
          ),
        },
      ]}
    />
  );
}
