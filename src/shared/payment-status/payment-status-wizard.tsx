import { useState } from 'react';
import { settableBillingStatuses } from '../../../contract/contract-bookings';
import { useT } from '../../i18n/i18n-context';
import type { SubmitOutcome } from '../../offline/outbox';
import { useOutboxInstance } from '../../offline/outbox-react';
import type { NewWrite } from '../../offline/outbox-write';
import { RadioGroup } from '../../ui/radio-group';
import { Wizard } from '../../ui/wizard';
import { paymentStatusChange, type PaymentRow, type PaymentStatus } from './payment-status-rules';

export interface PaymentStatusWizardProps {
  isOpen: boolean;
  selected: readonly PaymentRow[];
  /** The area's one outbox write for the rows that change (the server sets all or none). */
  write: (changing: readonly PaymentRow[], status: PaymentStatus) => NewWrite;
  /** Whose words: the users list speaks of users, the bills list of bills. */
  messages: 'users.payment' | 'bills.payment';
  onClose: () => void;
  onQueued: (outcome: SubmitOutcome) => void;
}

/**
 * Spec 2 §2/§4 payment-status change, the one modal of /nutzer and /rechnungen: PAID or UNPAID for
 * every selected row, in two steps; 'Feld nicht geändert' when no row would change; rows without a
 * bill are named in the no-invoice warning and left out. One outbox write for all of them.
 */
export function PaymentStatusWizard({ isOpen, selected, write, messages, onClose, onQueued }: PaymentStatusWizardProps) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [status, setStatus] = useState<PaymentStatus | null>(null);
  const { changing, withoutBill, unchanged } = paymentStatusChange(selected, status);
  const label = (s: PaymentStatus) => t(`users.billingStatus.${s}`);

  const noInvoice =
    withoutBill.length > 0 ? (
      <p
        role="alert"
        className="rounded-md border border-warning bg-warning-soft px-3 py-2 text-sm text-fg"
        data-testid="no-invoice-warning"
      >
        {t('users.payment.noInvoice', {
          names: withoutBill.map((r) => `${r.endCustomerId} (${r.name})`).join(', '),
          count: withoutBill.length,
        })}
      </p>
    ) : null;

  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={() => setStatus(null)}
      title={t(`${messages}.title`)}
      submitLabel={t('users.payment.submit')}
      onSubmit={async () => {
        if (!status) return;
        onQueued(await outbox.submit([write(changing, status)]));
      }}
      size="lg"
      steps={[
        {
          id: 'enter',
          title: t('users.payment.stepEnter'),
          isValid: status !== null && !unchanged,
          content: (
            <div className="flex flex-col gap-3">
              <RadioGroup
                label={t('users.payment.field')}
                isRequired
                value={status}
                onChange={(v) => setStatus(v as PaymentStatus)}
                items={settableBillingStatuses.map((s) => ({ id: s, label: label(s) }))}
                isInvalid={unchanged}
                errorMessage={unchanged ? t('users.payment.unchanged') : undefined}
              />
              {noInvoice}
            </div>
          ),
        },
        {
          id: 'confirm',
          title: t('users.payment.stepConfirm'),
          isValid: status !== null && !unchanged,
          content: (
            <div className="flex flex-col gap-2">
              <p>{status ? t(`${messages}.confirmIntro`, { status: label(status), count: changing.length }) : null}</p>
              <ul className="flex list-disc flex-col gap-1 ps-5">
                {changing.map((r) => (
                  <li key={r.id}>{`${r.endCustomerId} · ${r.name} · ${r.billNumber}`}</li>
                ))}
              </ul>
              {noInvoice}
            </div>
          ),
        },
      ]}
    />
  );
}
