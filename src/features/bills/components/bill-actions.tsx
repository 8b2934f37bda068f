import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { Key } from 'react-aria-components/Menu';
import {
  BILLS_PER_ACTION_MAX,
  billSelectionProblem,
  regenerateFailureCodes,
  type BillRow,
  type RegenerateAnswer,
} from '../../../../contract/bills';
import { isApiError } from '../../../api/errors';
import { useSession } from '../../../auth/session-context';
import { useT, type TranslateFn } from '../../../i18n/i18n-context';
import type { SubmitOutcome } from '../../../offline/outbox';
import { useOutboxInstance } from '../../../offline/outbox-react';
import type { PaymentRow } from '../../../shared/payment-status/payment-status-rules';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { lazyDialog, useDialogOpener } from '../../../ui/lazy-dialog';
import type { ActionMenuItem } from '../../../ui/menu';
import { showNotice } from '../../../ui/notices';
import { regenerateBillsMutation } from '../api/bill-queries';
import { billStatusWrite, sendBillsWrite } from '../api/bill-writes';

// Neither is part of the first screen: they load once the table shows.
const PaymentStatusWizard = lazyDialog(() =>
  import('../../../shared/payment-status/payment-status-wizard').then((m) => m.PaymentStatusWizard),
);
const ZipDownloadDialog = lazyDialog(() => import('./zip-download-dialog').then((m) => m.ZipDownloadDialog));

type BillAction = 'send' | 'download' | 'regenerate' | 'paymentStatus';
interface Outcome {
  variant: 'success' | 'warning' | 'error';
  title: string;
  text: string;
}

const asPaymentRow = (b: BillRow): PaymentRow => ({
  id: b.billId,
  billNumber: b.billNumber,
  billingStatus: b.billingStatus,
  endCustomerId: b.endCustomerId,
  name: `${b.endCustomerFirstName} ${b.endCustomerLastName}`,
});

/** The codes with a message of their own; any other refusal is the global error (spec 3 §8). */
const selectionCodes: readonly string[] = ['NO_INPUT_PROVIDED_ERROR', ...regenerateFailureCodes];

/** What a regenerate answer or refusal says (spec 3 §2, §8): success, a warning with the code's message, or the global error. */
function regenerateOutcome(t: TranslateFn, number: string, answer?: RegenerateAnswer, error?: unknown): Outcome {
  if (answer?.successfulBillRegenerations.includes(number))
    return { variant: 'success', title: t('bills.regenerate.successTitle'), text: t('bills.regenerate.success', { number }) };
  const code =
    answer?.unSuccessfulBillRegenerations.find((f) => f.billNumber === number)?.errorCode ??
    (isApiError(error) ? error.errorCodeResponse : '');
  const reason = selectionCodes.includes(code) ? t(`bills.regenerate.codes.${code}`) : t('bills.regenerate.error');
  if (answer || (selectionCodes.includes(code) && code !== 'BILLING_UTILITY_ERROR'))
    return { variant: 'warning', title: t('bills.regenerate.warningTitle'), text: t('bills.regenerate.partial', { number, reason }) };
  return { variant: 'error', title: t('bills.regenerate.errorTitle'), text: reason };
}

/**
 * The bills list's actions menu (spec 3 §2): send by mail and set paid/unpaid through the outbox,
 * the zip of the selection, and regenerate for admins, after a confirmation (it issues the bill anew). A selection the action does not take gets
 * the 'select' or the 'wrong selection / no invoice' warning (`billSelectionProblem`, as the server rules).
 */
export function useBillActions(
  selected: readonly BillRow[],
  clearSelection: () => void,
): {
  items: ActionMenuItem[];
  onAction: (id: Key) => void;
  dialogs: ReactNode;
} {
  const t = useT();
  const { isAdmin } = useSession();
  const outbox = useOutboxInstance();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The rows as the user saw them when the dialog opened (the write names their bills).
  const [frozen, setFrozen] = useState<readonly BillRow[]>([]);
  const paymentStatus = useDialogOpener();
  const zip = useDialogOpener();
  const regenerate = useMutation(regenerateBillsMutation());
  // The number of the bill whose regeneration waits for the user's yes.
  const [confirming, setConfirming] = useState<string | null>(null);
  useEffect(() => PaymentStatusWizard.preload(), []);

  const warn = (problem: 'select' | 'wrongSelection', action: BillAction) =>
    setOutcome(
      problem === 'select'
        ? { variant: 'warning', title: t('bills.selection.title'), text: t('bills.selection.select') }
        : {
            variant: 'warning',
            title: t('bills.selection.wrongTitle'),
            text:
              selected.length > BILLS_PER_ACTION_MAX
                ? t('bills.selection.tooMany', { max: BILLS_PER_ACTION_MAX })
                : t(`bills.selection.${action}`),
          },
    );

  const sent = (outcome: SubmitOutcome, count: number) => {
    clearSelection();
    if (outcome === 'saved')
      setOutcome({
        variant: 'success',
        title: t('bills.send.LBLSendBillPdfMailSuccess'),
        text: t('bills.send.MSGSendBillPdfMailSuccess', { count }),
      });
    else if (outcome === 'failed')
      setOutcome({ variant: 'error', title: t('bills.send.LBLSendBillPdfMailError'), text: t('bills.send.MSGSendBillPdfMailError') });
    else if (outcome === 'queued') showNotice({ id: 'bill-send', tone: 'info', message: t('bills.send.queued'), timeout: 6_000 });
  };

  const statusQueued = (outcome: SubmitOutcome) => {
    paymentStatus.close();
    clearSelection();
    if (outcome === 'blocked') return;
    showNotice({
      id: 'bill-status-write',
      tone: outcome === 'saved' ? 'success' : outcome === 'queued' ? 'info' : 'error',
      message: t(outcome === 'saved' ? 'bills.payment.updated' : outcome === 'queued' ? 'outbox.notice.queued' : 'errors.serverAgain'),
      timeout: 6_000,
    });
  };

  const onAction = (id: Key) => {
    const action = id as BillAction;
    if (action === 'paymentStatus') {
      if (selected.length === 0) return warn('select', action);
      setFrozen(selected);
      return paymentStatus.open();
    }
    const problem = billSelectionProblem(action, selected);
    if (problem) return warn(problem, action);
    const bills = [...selected];
    if (action === 'send') return void outbox.submit([sendBillsWrite(bills)]).then((o) => sent(o, bills.length));
    if (action === 'download') {
      setFrozen(bills);
      return zip.open();
    }
    // Regenerating issues the bill anew (today's data, today's date): asked first.
    setConfirming(bills[0]!.billNumber);
  };

  const regenerateConfirmed = (number: string) => {
    setConfirming(null);
    regenerate.mutate(
      { billNumbers: [number] },
      {
        onSuccess: (answer) => setOutcome(regenerateOutcome(t, number, answer)),
        onError: (error) => setOutcome(regenerateOutcome(t, number, undefined, error)),
      },
    );
  };

  const items: ActionMenuItem[] = [
    { id: 'send', label: t('bills.actions.send') },
    { id: 'download', label: t('bills.actions.download') },
    ...(isAdmin ? [{ id: 'regenerate', label: t('bills.actions.regenerate') }] : []),
    { id: 'paymentStatus', label: t('bills.actions.paymentStatus') },
  ];

  const dialogs = (
    <>
      <PaymentStatusWizard
        key={`payment-${paymentStatus.opening}`}
        opener={paymentStatus}
        selected={frozen.map(asPaymentRow)}
        messages="bills.payment"
        write={(changing, status) =>
          billStatusWrite(
            frozen.filter((b) => changing.some((c) => c.id === b.billId)),
            status,
          )
        }
        onQueued={statusQueued}
      />
      <ZipDownloadDialog key={`zip-${zip.opening}`} opener={zip} bills={frozen} />
      <Dialog
        isOpen={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title={t('bills.regenerate.confirmTitle')}
        size="sm"
        role="alertdialog"
        actions={
          <>
            <Button variant="secondary" onPress={() => setConfirming(null)}>
              {t('ui.common.cancel')}
            </Button>
            <Button onPress={() => confirming && regenerateConfirmed(confirming)}>{t('bills.regenerate.confirmAction')}</Button>
          </>
        }
      >
        <p>{confirming && t('bills.regenerate.confirmText', { number: confirming })}</p>
      </Dialog>
      <AlertDialog
        isOpen={outcome !== null}
        onClose={() => setOutcome(null)}
        variant={outcome?.variant ?? 'warning'}
        title={outcome?.title}
      >
        <span data-testid="bill-outcome">{outcome?.text}</span>
      </AlertDialog>
    </>
  );
  return { items, onAction, dialogs };
}
