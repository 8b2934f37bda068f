import { useState } from 'react';
import { useT } from '../../../i18n/i18n-context';
import type { SubmitOutcome } from '../../../offline/outbox';
import { useOutboxInstance } from '../../../offline/outbox-react';
import { TextField } from '../../../ui/text-field';
import { Wizard } from '../../../ui/wizard';
import { displayConnectorId } from '../station-display';
import { duplicatesInSelection, parkingLotWrite, withQueuedVersions, validateParkingLots, type SelectedConnector } from '../station-rules';

export interface ParkingLotWizardProps {
  isOpen: boolean;
  selected: readonly SelectedConnector[];
  onClose: () => void;
  /** After the writes are queued in the outbox (and, online, answered). */
  onQueued: (outcome: SubmitOutcome) => void;
  /** Lots to start with, per connector id (coming back to a refused write). */
  initialValues?: Readonly<Record<string, string>>;
}

/** Spec 2 §2: one parking lot per selected connector (enter, confirm); queued in the outbox. */
export function ParkingLotWizard({ isOpen, selected, onClose, onQueued, initialValues }: ParkingLotWizardProps) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [values, setValues] = useState<Record<string, string>>({ ...initialValues });
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set(Object.keys(initialValues ?? {})));
  const errors = validateParkingLots(selected, values);
  const twice = duplicatesInSelection(selected, values);
  const errorText = (c: SelectedConnector, error: string) =>
    error === 'duplicateInSelection'
      ? t('dataRules.lotTwiceInSelection', {
          lot: (values[c.connectorId] ?? '').trim(),
          others: (twice[c.connectorId] ?? [])
            .map((o) => t('dataRules.connectorName', { cpId: o.cpId, connector: displayConnectorId(o.connectorId) }))
            .join(', '),
        })
      : t(`stations.validation.${error}`);
  const isValid = Object.keys(errors).length === 0;

  const submit = async () => {
    const queued = outbox.getSnapshot();
    onQueued(await outbox.submit([parkingLotWrite(withQueuedVersions(selected, queued), values, queued)]));
  };

  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={() => {
        setValues({});
        setTouched(new Set());
      }}
      title={t('stations.parkingLot.title')}
      submitLabel={t('stations.parkingLot.submit')}
      onSubmit={submit}
      size="lg"
      steps={[
        {
          id: 'enter',
          title: t('stations.parkingLot.stepEnter'),
          isValid,
          content: (
            <div className="flex flex-col gap-3">
              {selected.map((c) => {
                const error = touched.has(c.connectorId) ? errors[c.connectorId] : undefined;
                return (
                  <TextField
                    key={c.connectorId}
                    label={t('stations.parkingLot.fieldLabel', { cpId: c.cpId, connector: displayConnectorId(c.connectorId) })}
                    description={t('stations.parkingLot.current', { lot: c.address.parkingLot ?? '–' })}
                    value={values[c.connectorId] ?? ''}
                    onChange={(v) => {
                      setValues((prev) => ({ ...prev, [c.connectorId]: v }));
                      setTouched((prev) => new Set(prev).add(c.connectorId));
                    }}
                    errorMessage={error ? errorText(c, error) : undefined}
                    isRequired
                    autoComplete="off"
                  />
                );
              })}
            </div>
          ),
        },
        {
          id: 'confirm',
          title: t('stations.parkingLot.stepConfirm'),
          isValid,
          content: (
            <div className="flex flex-col gap-2">
              <p>{t('stations.parkingLot.confirmIntro')}</p>
              <ul className="flex list-disc flex-col gap-1 ps-5">
                {selected.map((c) => (
                  <li key={c.connectorId}>
                    {t('stations.parkingLot.confirmLine', {
                      cpId: c.cpId,
                      connector: displayConnectorId(c.connectorId),
                      from: c.address.parkingLot ?? '–',
                      to: (values[c.connectorId] ?? '').trim(),
                    })}
                  </li>
                ))}
              </ul>
            </div>
          ),
        },
      ]}
    />
  );
}
