import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  OCPP_KEY_MAX,
  OCPP_VALUE_MAX,
  type ConnectorOperationType,
  type StationOperationAnswer,
  type StationOperationBody,
} from '../../../../contract/ocpp';
import { useT } from '../../../i18n/i18n-context';
import { useOnlineStatus } from '../../../offline/online-status';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { StatusBadge } from '../../../ui/status-badge';
import { TextField } from '../../../ui/text-field';
import { stationOperationMutation } from '../api/station-ocpp-queries';
import { displayConnectorId } from '../station-display';
import {
  fieldsOf,
  operationFailure,
  operationIssues,
  operationStatusTone,
  operationTypeMessageId,
  stationWord,
  type Message,
} from '../station-operations';
import { ConfigurationTable } from './configuration-table';

export interface StationOperationDialogProps {
  isOpen: boolean;
  onClose: () => void;
  station: { cpId: string; connectorId: string };
  type: ConnectorOperationType;
  /** GET_CONFIGURATION / CHANGE_CONFIGURATION: the key to start with. */
  initialKey?: string;
}

/**
 * One station operation (spec 2 §2, §5): its fields with the contract's rules, sent once the user
 * confirms, and what the station answered (its status word, or the configuration it reported).
 * It needs the network: offline it says so and sends nothing, and nothing is queued.
 */
export function StationOperationDialog({ isOpen, onClose, station, type, initialKey }: StationOperationDialogProps) {
  const t = useT();
  const online = useOnlineStatus();
  const fields = fieldsOf(type);
  const [key, setKey] = useState(initialKey ?? '');
  const [value, setValue] = useState('');
  const [checked, setChecked] = useState(false);
  const mutation = useMutation(stationOperationMutation());
  const body: StationOperationBody = {
    connectorOperationType: type,
    cpId: station.cpId,
    connectorId: station.connectorId,
    ...(fields.key ? { key } : {}),
    ...(fields.value ? { value } : {}),
  };
  const issues = checked ? operationIssues(body) : {};
  const message = (m: Message | undefined) => (m ? t(m.id, m.values) : undefined);
  const answered = mutation.isSuccess || mutation.isError;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setChecked(true);
    if (!online || mutation.isPending) return;
    const found = operationIssues(body);
    if (found.key || found.value) return;
    mutation.mutate(body);
  };

  const title = t('ocpp.dialog.title', { operation: t(operationTypeMessageId(type)) });
  const formId = `ocpp-operation-${type}`;
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      size={type === 'GET_CONFIGURATION' ? 'lg' : 'md'}
      isDismissable={!mutation.isPending}
      actions={
        answered ? (
          <>
            {fields.key || fields.value ? (
              <Button variant="secondary" onPress={() => mutation.reset()}>
                {t('ocpp.dialog.again')}
              </Button>
            ) : null}
            <Button onPress={onClose}>{t('ui.common.close')}</Button>
          </>
        ) : (
          <>
            <Button variant="secondary" onPress={onClose} isDisabled={mutation.isPending}>
              {t('ui.common.cancel')}
            </Button>
            <Button type="submit" form={formId} isPending={mutation.isPending} isDisabled={!online}>
              {t('ocpp.dialog.send')}
            </Button>
          </>
        )
      }
    >
      <div className="flex flex-col gap-4">
        <p className="text-muted">{t('ocpp.dialog.target', { cpId: station.cpId, connector: displayConnectorId(station.connectorId) })}</p>
        {answered ? null : (
          <form id={formId} noValidate onSubmit={submit} className="flex flex-col gap-4">
            <p>{t(`ocpp.describe.${type}`)}</p>
            {fields.key ? (
              <TextField
                label={t(type === 'GET_CONFIGURATION' ? 'ocpp.dialog.keys' : 'ocpp.dialog.key')}
                description={type === 'GET_CONFIGURATION' ? t('ocpp.dialog.keysHint') : undefined}
                value={key}
                onChange={setKey}
                isRequired
                autoComplete="off"
                maxLength={type === 'GET_CONFIGURATION' ? 2000 : OCPP_KEY_MAX}
                errorMessage={message(issues.key)}
                fullWidth
              />
            ) : null}
            {fields.value ? (
              <TextField
                label={t(fields.value === 'location' ? 'ocpp.dialog.location' : 'ocpp.dialog.value')}
                description={fields.value === 'location' ? t('ocpp.dialog.locationHint') : undefined}
                value={value}
                onChange={setValue}
                isRequired
                autoComplete="off"
                maxLength={OCPP_VALUE_MAX}
                errorMessage={message(issues.value)}
                fullWidth
              />
            ) : null}
            {!online ? (
              <p role="status" className="rounded-md bg-warning-soft px-3 py-2 text-warning">
                {t('ocpp.dialog.needsNetwork')}
              </p>
            ) : null}
            {mutation.isPending ? (
              <p role="status" className="text-muted">
                {t('ocpp.dialog.waiting')}
              </p>
            ) : null}
          </form>
        )}
        {mutation.isSuccess ? <OperationAnswer answer={mutation.data} /> : null}
        {mutation.isError ? (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-danger">
            {message(operationFailure(mutation.error))}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}

/** What the station said: its status word, and for GetConfiguration the keys it reported. */
export function OperationAnswer({ answer }: { answer: StationOperationAnswer }) {
  const t = useT();
  return (
    <div role="status" className="flex flex-col gap-3">
      <p className="flex flex-wrap items-center gap-2">
        <span>{t('ocpp.dialog.answered')}</span>
        <StatusBadge tone={operationStatusTone[answer.status]}>{t(`ocpp.status.${answer.status}`)}</StatusBadge>
        {stationWord(t, answer.stationStatus) ? <span>{stationWord(t, answer.stationStatus)}</span> : null}
      </p>
      {answer.configuration ? (
        answer.configuration.length ? (
          <ConfigurationTable keys={answer.configuration} label={t('ocpp.configuration.answerLabel')} />
        ) : (
          <p>{t('ocpp.configuration.noneReported')}</p>
        )
      ) : null}
      {answer.unknownKeys?.length ? <p>{t('ocpp.configuration.unknownKeys', { keys: answer.unknownKeys.join(', ') })}</p> : null}
    </div>
  );
}
