import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContractDetail } from '../../../../contract/contracts';
import { useT } from '../../../i18n/i18n-context';
import { useOutboxInstance } from '../../../offline/outbox-react';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { showNotice } from '../../../ui/notices';
import { billListQueryOptions } from '../../bills/api/bill-queries';
import { sendBillsWrite } from '../../bills/api/bill-writes';

type Outcome = { variant: 'success' | 'error'; title: string; text: string };

/**
 * Spec 3 §4: a GENERATED bill on a WITH_BILLING contract shows a send-bill button. The bill is the
 * contract's own newest GENERATED one, asked for by its key (the contract's status is its newest
 * bill's): an older contract of the same end-customer id may have a GENERATED bill of its own,
 * which this button must never send. It is sent through the outbox like the bills list's, and the
 * contract's page refreshes with the bill lists.
 */
export function SendBillButton({ contract: c }: { contract: Pick<ContractDetail, 'contractKey' | 'billingStatus'> }) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [sending, setSending] = useState(false);
  const isGenerated = c.billingStatus === 'GENERATED';
  const bills = useQuery({
    ...billListQueryOptions({
      startDate: '',
      endDate: '',
      userTypes: [],
      paymentMethods: [],
      billingStatuses: ['GENERATED'],
      endCustomerId: '',
      contractKey: c.contractKey,
      page: 0,
      size: 10,
    }),
    enabled: isGenerated,
  });
  // The outcome stays on screen after the bill is SENT and the button is gone.
  const bill = isGenerated ? bills.data?.response.find((b) => b.contractKey === c.contractKey) : undefined;

  const send = async () => {
    if (!bill) return;
    setSending(true);
    try {
      const result = await outbox.submit([sendBillsWrite([bill])]);
      if (result === 'saved')
        setOutcome({
          variant: 'success',
          title: t('bills.send.LBLSendBillPdfMailSuccess'),
          text: t('bills.send.MSGSendBillPdfMailSuccess', { count: 1 }),
        });
      else if (result === 'failed')
        setOutcome({ variant: 'error', title: t('bills.send.LBLSendBillPdfMailError'), text: t('bills.send.MSGSendBillPdfMailError') });
      else if (result === 'queued') showNotice({ id: 'bill-send', tone: 'info', message: t('bills.send.queued'), timeout: 6_000 });
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      {bill && (
        <Button
          size="sm"
          variant="secondary"
          onPress={() => void send()}
          isPending={sending}
          aria-label={t('bills.contract.sendFor', { number: bill.billNumber })}
        >
          {t('bills.contract.send')}
        </Button>
      )}
      <AlertDialog
        isOpen={outcome !== null}
        onClose={() => setOutcome(null)}
        variant={outcome?.variant ?? 'success'}
        title={outcome?.title}
      >
        {outcome?.text}
      </AlertDialog>
    </>
  );
}
