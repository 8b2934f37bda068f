import { useState } from 'react';
import type { OperatorDetail } from '../../../../contract/operators';
import { useT } from '../../../i18n/i18n-context';
import type { SubmitOutcome } from '../../../offline/outbox';
import { useOutboxInstance } from '../../../offline/outbox-react';
import type { NewWrite } from '../../../offline/outbox-write';
import { versionToSend } from '../../../offline/versioned-writes';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { Wizard } from '../../../ui/wizard';
import { methodMessageId } from '../api/operator-queries';
import { operatorScope, type OperatorEdit, type OperatorWriteData } from '../api/operator-writes';
import { addressWrite, billingWrite, erpWrite } from '../operator-edits';
import {
  billingRulesWith,
  billingValuesOf,
  isBillingRequiredMissing,
  offersBillingChoice,
  type BillingValues,
} from '../operator-billing-form';
import { isClearingPaymentMethod } from '../../../../contract/downloads';
import { erpMethodsOf, erpRules, erpValuesOf, type ErpValues } from '../operator-erp-form';
import { addressRules, addressValuesOf, type AddressValues } from '../operator-form';
import { BillingFields, NameAndAddressFields, Summary, addressEntries, billingGroups } from './operator-fields';

export interface EditDialogProps {
  edit: OperatorEdit;
  /** The operator as the user saw it when opening the dialog (its version goes into the write). */
  operator: OperatorDetail;
  isOpen: boolean;
  onClose: () => void;
  /** What the user entered before (coming back to a refused write), else the operator's values. */
  initialValues?: Record<string, string> | null;
  /** After the write is in the outbox (and, online, answered); `draft` names it. */
  onQueued: (outcome: SubmitOutcome, draft: string) => void;
  /**
   * The refused write this edit makes again ('Erneut bearbeiten'), by its draft: saving replaces it,
   * since a refused write holds back every later write of its operator until it is gone.
   */
  replaces?: string | null;
  /** Bill-number prefixes the server refused as another operator's (the refused write's 409): shown at the field. */
  takenPrefixes?: readonly string[];
}

/**
 * The three edits of an operator's page (spec 3 §2): each a form step and a confirm step ('Weiter',
 * 'Speichern'), sent through the outbox (queued offline, sent once with its idempotency key, a
 * conflict parked with what changed). Mounted afresh for every opening.
 */
export function OperatorEditDialog(props: EditDialogProps) {
  switch (props.edit) {
    case 'address':
      return <EditAddress {...props} />;
    case 'billing':
      return <EditBilling {...props} />;
    default:
      return <EditErp {...props} />;
  }
}

function useSubmit({ operator, onQueued, replaces }: Pick<EditDialogProps, 'operator' | 'onQueued' | 'replaces'>) {
  const outbox = useOutboxInstance();
  return async (build: (version: number | undefined) => NewWrite<OperatorWriteData<Record<string, string>>>) => {
    const refused = replaces
      ? outbox.getSnapshot().find((w) => w.state === 'failed' && (w.data as OperatorWriteData | undefined)?.draft === replaces)
      : undefined;
    if (refused) await outbox.discard(refused.id);
    const write = build(versionToSend(operator.version, operatorScope(operator.cpoId), outbox.getSnapshot()));
    onQueued(await outbox.submit([write]), write.data.draft);
  };
}

function EditAddress({ operator, isOpen, onClose, initialValues, onQueued, replaces }: EditDialogProps) {
  const t = useT();
  const form = useForm<AddressValues>({ ...addressValuesOf(operator), ...initialValues }, addressRules);
  const submit = useSubmit({ operator, onQueued, replaces });
  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={t('operators.edit.addressTitle')}
      submitLabel={t('ui.common.save')}
      size="lg"
      onSubmit={() => submit((version) => addressWrite(operator, version, form.values))}
      steps={[
        {
          id: 'enter',
          title: t('operators.edit.stepEnter'),
          isValid: form.isValid,
          onNext: form.trySubmit,
          content: <NameAndAddressFields field={form.field} autoFocus />,
        },
        {
          id: 'confirm',
          title: t('operators.edit.stepConfirm'),
          isValid: form.isValid,
          content: <Summary intro={t('operators.edit.confirmHint')} groups={[{ entries: addressEntries(t, form.values) }]} />,
        },
      ]}
    />
  );
}

function EditBilling({ operator, isOpen, onClose, initialValues, onQueued, replaces, takenPrefixes }: EditDialogProps) {
  const t = useT();
  const [rules] = useState(() => billingRulesWith(takenPrefixes));
  const form = useForm<BillingValues>({ ...billingValuesOf(operator), ...initialValues }, rules);
  const submit = useSubmit({ operator, onQueued, replaces });
  const isValid = form.isValid && !isBillingRequiredMissing(form.values);
  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={t('operators.edit.billingTitle')}
      submitLabel={t('ui.common.save')}
      onSubmit={() => submit((version) => billingWrite(operator, version, form.values))}
      steps={[
        {
          id: 'enter',
          title: t('operators.edit.stepEnter'),
          isValid,
          onNext: form.trySubmit,
          content: <BillingFields form={form} offersChoice={offersBillingChoice(operator)} />,
        },
        {
          id: 'confirm',
          title: t('operators.edit.stepConfirm'),
          isValid,
          content: <Summary intro={t('operators.edit.confirmHint')} groups={billingGroups(t, form.values)} />,
        },
      ]}
    />
  );
}

function EditErp({ operator, isOpen, onClose, initialValues, onQueued, replaces }: EditDialogProps) {
  const t = useT();
  const methods = erpMethodsOf(operator);
  const first = initialValues?.paymentMethod ?? methods[0];
  const form = useForm<ErpValues>({ ...erpValuesOf(operator, first), ...initialValues }, erpRules);
  const submit = useSubmit({ operator, onQueued, replaces });
  const methodName = t(methodMessageId(form.values.paymentMethod));
  const clearing = isClearingPaymentMethod(form.values.paymentMethod);
  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={t('operators.edit.erpTitle')}
      submitLabel={t('ui.common.save')}
      size="lg"
      onSubmit={() => submit((version) => erpWrite(operator, version, form.values))}
      steps={[
        {
          id: 'enter',
          title: t('operators.edit.stepEnter'),
          isValid: form.isValid,
          onNext: form.trySubmit,
          content: (
            <div className="grid gap-4 md:grid-cols-2">
              {methods.length > 1 ? (
                <Select
                  label={t('operators.erp.paymentMethod')}
                  items={methods.map((m) => ({ id: m, label: t(methodMessageId(m)) }))}
                  value={form.values.paymentMethod}
                  // Another method edits that method's value: its fields show what is stored for it.
                  onChange={(value) => value !== null && form.setValues(erpValuesOf(operator, String(value)))}
                  description={t('operators.edit.erpMethodHint')}
                  isRequired
                  fullWidth
                  className="md:col-span-2"
                />
              ) : (
                // Spec 3 §5: the payment method is shown read-only.
                <TextField label={t('operators.erp.paymentMethod')} value={methodName} isReadOnly fullWidth className="md:col-span-2" />
              )}
              <TextField
                label={t('operators.erp.clientNumber')}
                description={t('operators.erp.clientNumberHint')}
                isRequired
                fullWidth
                autoFocus
                autoComplete="off"
                {...bindField(t, form.field('clientNumber'))}
              />
              <TextField
                label={t('operators.erp.netLedgerAccountNr')}
                isRequired
                fullWidth
                autoComplete="off"
                {...bindField(t, form.field('netLedgerAccountNr'))}
              />
              <TextField
                label={t('operators.erp.taxLedgerAccountNr')}
                fullWidth
                autoComplete="off"
                {...bindField(t, form.field('taxLedgerAccountNr'))}
              />
              {clearing && (
                <TextField
                  label={t('operators.erp.clearingAccountNr')}
                  description={t('operators.erp.clearingAccountNrHint')}
                  fullWidth
                  autoComplete="off"
                  {...bindField(t, form.field('clearingAccountNr'))}
                />
              )}
            </div>
          ),
        },
        {
          id: 'confirm',
          title: t('operators.edit.stepConfirm'),
          isValid: form.isValid,
          content: (
            <Summary
              intro={t('operators.edit.confirmHint')}
              groups={[
                {
                  entries: [
                    [t('operators.erp.paymentMethod'), methodName],
                    [t('operators.erp.clientNumber'), form.values.clientNumber.trim() || '–'],
                    [t('operators.erp.netLedgerAccountNr'), form.values.netLedgerAccountNr.trim() || '–'],
                    [t('operators.erp.taxLedgerAccountNr'), form.values.taxLedgerAccountNr.trim() || '–'],
                    ...(clearing
                      ? [[t('operators.erp.clearingAccountNr'), form.values.clearingAccountNr.trim() || '–'] as [string, string]]
                      : []),
                  ],
                },
              ]}
            />
          ),
        },
      ]}
    />
  );
}
