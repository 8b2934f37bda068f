import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { ContractDetail } from '../../../../contract/contracts';
import { getRuntimeConfig } from '../../../api/config';
import { isApiError, isNetworkError } from '../../../api/errors';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { isOnline } from '../../../offline/online-status';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import type { ActionMenuItem } from '../../../ui/menu';
import {
  clearRedo,
  readRedoRecord,
  redoPaymentSetupMutation,
  redoPaymentSetupOffered,
  rememberRedo,
  type RedoRecord,
} from '../api/payment-setup';

const refusalCodes = ['PAYMENT_METHOD_DATA_INCONSISTENCY', 'CONTRACT_STATUS_DATA_INCONSISTENCY', 'STRIPE_SEPA_NOT_CONFIGURED'] as const;
type Refusal = (typeof refusalCodes)[number];
type Phase = 'idle' | 'confirm' | 'sent' | 'offline' | 'tooMany' | 'generic' | Refusal;

/** The device's record for the contract, followed until it runs out (then the action is offered again). */
function useRedoRecord(contractKey: string) {
  const [record, setRecord] = useState<RedoRecord | null>(() => readRedoRecord(contractKey));
  useEffect(() => {
    if (!record) return;
    const timer = setTimeout(() => setRecord(readRedoRecord(contractKey)), Math.max(0, record.expiry - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [contractKey, record]);
  return [record, setRecord] as const;
}

/**
 * 'Redo payment details setup' (spec 2 §4, §8, §9): the menu item (offered as the spec says,
 * disabled while the device's interval runs), a confirmation naming where the link goes, and the
 * outcome. It needs the server: offline it says so instead of queueing.
 */
export function useRedoPaymentSetup(contract: ContractDetail): { item: ActionMenuItem | null; start: () => void; dialogs: ReactNode } {
  const t = useT();
  const fmt = useFormat();
  const key = contract.contractKey;
  const [phase, setPhase] = useState<Phase>('idle');
  const [record, setRecord] = useRedoRecord(key);
  const mutation = useMutation(redoPaymentSetupMutation());

  const offered = redoPaymentSetupOffered(contract);
  const item: ActionMenuItem | null = offered
    ? {
        id: 'redo-payment-setup',
        label: record ? t('payments.redo.waiting', { time: fmt.time(record.expiry) }) : t('payments.redo.action'),
        isDisabled: !!record,
      }
    : null;

  const send = async () => {
    if (!isOnline()) return setPhase('offline');
    // Kept before the request (spec 2 §9: last request and expiry), dropped again if it fails.
    setRecord(rememberRedo(key, getRuntimeConfig().redoSepaIntervalMinutes));
    try {
      await mutation.mutateAsync(key);
      setPhase('sent');
    } catch (error) {
      clearRedo(key);
      setRecord(null);
      if (isNetworkError(error)) setPhase('offline');
      else if (isApiError(error) && error.status === 429) setPhase('tooMany');
      else if (isApiError(error) && (refusalCodes as readonly string[]).includes(error.errorCodeResponse))
        setPhase(error.errorCodeResponse as Refusal);
      else setPhase('generic');
    }
  };

  const close = () => setPhase('idle');
  const name = `${contract.firstName} ${contract.lastName}`;
  const dialogs = (
    <>
      <Dialog
        isOpen={phase === 'confirm'}
        onOpenChange={(open) => !open && !mutation.isPending && close()}
        title={t('payments.redo.confirmTitle')}
        size="sm"
        actions={
          <>
            <Button variant="secondary" onPress={close} isDisabled={mutation.isPending}>
              {t('ui.common.cancel')}
            </Button>
            <Button onPress={() => void send()} isPending={mutation.isPending}>
              {t('payments.redo.send')}
            </Button>
          </>
        }
      >
        <p>{t('payments.redo.confirmText', { name, email: contract.email })}</p>
      </Dialog>
      <AlertDialog isOpen={phase === 'sent'} onClose={close} variant="success" title={t('payments.redo.sentTitle')}>
        <p>{t('payments.redo.sentText', { email: contract.email, time: record ? fmt.time(record.expiry) : '' })}</p>
      </AlertDialog>
      <AlertDialog isOpen={phase === 'offline'} onClose={close} variant="warning" title={t('payments.redo.offlineTitle')}>
        <p>{t('payments.redo.offlineText')}</p>
      </AlertDialog>
      <AlertDialog isOpen={phase === 'tooMany'} onClose={close} variant="warning" title={t('payments.redo.tooManyTitle')}>
        <p>{t('payments.redo.tooManyText')}</p>
      </AlertDialog>
      <AlertDialog
        isOpen={(refusalCodes as readonly string[]).includes(phase)}
        onClose={close}
        variant="warning"
        title={t('payments.redo.invalidTitle')}
      >
        <p>{(refusalCodes as readonly string[]).includes(phase) ? t(`payments.redo.${phase as Refusal}`) : null}</p>
      </AlertDialog>
      <AlertDialog isOpen={phase === 'generic'} onClose={close} variant="error">
        <p>{t('errors.somethingWrong')}</p>
      </AlertDialog>
    </>
  );
  return { item, start: () => setPhase(isOnline() ? 'confirm' : 'offline'), dialogs };
}
