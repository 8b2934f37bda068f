import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { CreateOperatorAnswer } from '../../../../contract/operator-writes';
import { refreshAccessToken } from '../../../api/client';
import { useSession } from '../../../auth/session-context';
import { useT } from '../../../i18n/i18n-context';
import { CreateWizard } from '../../../layout/create-wizard';
import { Checkbox } from '../../../ui/checkbox';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { validationMessage } from '../../../ui/validation';
import { ALL_CUSTOMERS, customerLabel, customerListQueryOptions } from '../../customers/api/customer-queries';
import { createOperatorMutation } from '../api/operator-queries';
import { billingRulesWith, emptyBilling, isBillingRequiredMissing, type BillingValues } from '../operator-billing-form';
import {
  CUSTOMER_TYPES,
  buildCreatePayload,
  createFailure,
  emptyOperatorInfo,
  operatorInfoRules,
  type OperatorInfoValues,
} from '../operator-form';
import { flag } from '../operator-rules';
import { BillingFields, NameAndAddressFields, Section, Summary, addressEntries, billingGroups } from './operator-fields';

/**
 * 'Betreiber anlegen' (spec 1 §2): operator info → invoice template info → confirm and save. After
 * success the tokens are refreshed (spec 1 §4), so the new operator is in the user's scope at once,
 * and every operator list and select is refreshed.
 */
export function OperatorWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { claims, isAdmin } = useSession();
  const [initialInfo] = useState(() => emptyOperatorInfo(claims, isAdmin));
  const [infoRules] = useState(() => operatorInfoRules(isAdmin));
  const info = useForm<OperatorInfoValues>(initialInfo, infoRules);
  const [initialBilling] = useState(emptyBilling);
  // Prefixes the server said another operator has (409 BILL_NUMBER_PREFIX_TAKEN): shown at the field.
  const [takenPrefixes, setTakenPrefixes] = useState<string[]>([]);
  const rules = useMemo(() => billingRulesWith(takenPrefixes), [takenPrefixes]);
  const billing = useForm<BillingValues>(initialBilling, rules);

  const reset = () => {
    info.reset();
    billing.reset();
    setTakenPrefixes([]);
  };

  const create = useMutation({
    ...createOperatorMutation(),
    // Spec 1 §4: the new operator joins the token's operators (cpo_id). A failed refresh is no
    // failed creation: the server reads the scope from the database on every request anyway.
    onSuccess: () => refreshAccessToken().catch(() => undefined),
  });

  const failure = (error: unknown) => {
    const found = createFailure(error, info.values.customerId);
    switch (found.kind) {
      case 'customerNotFound':
        return t('operators.wizard.customerNotFound', { customerId: found.customerId });
      case 'operatorNotFound':
        return t('operators.wizard.operatorNotFound', { cpoId: found.cpoId });
      case 'prefixTaken': {
        const prefix = found.billNumberPrefix || billing.values.billNumberPrefix.trim();
        setTakenPrefixes((p) => [...p, prefix]);
        return t('operators.wizard.prefixTaken', { prefix });
      }
      case 'forbidden':
        return t('errors.forbidden');
      case 'validation':
        return t('errors.validation');
      default:
        return undefined;
    }
  };

  const billingValid = billing.isValid && !isBillingRequiredMissing(billing.values);

  return (
    <CreateWizard<CreateOperatorAnswer>
      isOpen={isOpen}
      onClose={onClose}
      onReset={reset}
      title={t('operators.wizard.title')}
      submitLabel={t('ui.common.save')}
      send={() => create.mutateAsync(buildCreatePayload(info.values, billing.values))}
      isSending={create.isPending}
      successTitle={t('operators.wizard.successTitle')}
      successBody={(answer) => (
        <div className="flex flex-col gap-2">
          <p>{t('operators.wizard.successText')}</p>
          <p data-testid="created-operator-id">{t('operators.wizard.successId', { id: answer.cpoId })}</p>
        </div>
      )}
      failure={failure}
      steps={[
        {
          id: 'operator',
          title: t('operators.wizard.stepOperator'),
          isValid: info.isValid,
          onNext: info.trySubmit,
          content: (
            <div className="flex flex-col gap-6">
              <NameAndAddressFields field={info.field} autoFocus />
              <CustomerSection info={info} isAdmin={isAdmin} isOpen={isOpen} />
            </div>
          ),
        },
        {
          id: 'template',
          title: t('operators.wizard.stepTemplate'),
          isValid: billingValid,
          onNext: billing.trySubmit,
          content: <BillingFields form={billing} offersChoice />,
        },
        {
          id: 'confirm',
          title: t('operators.wizard.stepConfirm'),
          isValid: info.isValid && billingValid,
          content: (
            <Summary
              intro={t('operators.wizard.confirmHint')}
              groups={[
                {
                  title: t('operators.wizard.stepOperator'),
                  entries: [
                    ...addressEntries(t, info.values),
                    [t('operators.fields.customerId'), info.values.customerId || '–'],
                    [
                      t('operators.fields.customerType'),
                      info.values.customerType ? t(`operators.customerType.${info.values.customerType}`) : '–',
                    ],
                    [
                      t('operators.fields.manualEndCustomerId'),
                      info.values.createManualEndCustomerId === 'true' ? t('operators.yes') : t('operators.no'),
                    ],
                  ],
                },
                ...billingGroups(t, billing.values),
              ]}
            />
          ),
        },
      ]}
    />
  );
}

/** The new operator's customer: its number (picked from the customer list by admins) and type, and the manual-ids flag. */
function CustomerSection({
  info,
  isAdmin,
  isOpen,
}: {
  info: ReturnType<typeof useForm<OperatorInfoValues>>;
  isAdmin: boolean;
  isOpen: boolean;
}) {
  const t = useT();
  // Platform admins pick the new operator's customer (spec 3 §2's customer list); others have their own.
  const customerOptions = useQuery({
    ...customerListQueryOptions(ALL_CUSTOMERS),
    select: (page) => page.response,
    enabled: isAdmin && isOpen,
  });
  const customerTypeItems = CUSTOMER_TYPES.map((type) => ({ id: type, label: t(`operators.customerType.${type}`) }));
  return (
    <Section title={t('operators.wizard.customer')}>
      <div className="grid gap-4 md:grid-cols-2">
        {isAdmin && customerOptions.data ? (
          // Admins choose the customer from the customer list; its type comes with it.
          <Select
            label={t('operators.fields.customerId')}
            items={customerOptions.data.map((c) => ({ id: c.customerId, label: customerLabel(c) }))}
            value={info.values.customerId || null}
            onChange={(value) => {
              const chosen = customerOptions.data.find((c) => c.customerId === value);
              info.setValues((v) => ({
                ...v,
                customerId: chosen?.customerId ?? '',
                customerType: chosen?.customerType ?? v.customerType,
              }));
            }}
            description={t('operators.wizard.customerIdHint')}
            errorMessage={validationMessage(t, info.field('customerId').error)}
            isRequired
            fullWidth
          />
        ) : (
          // Until the list is there (or when it cannot be loaded), the number is typed.
          <TextField
            label={t('operators.fields.customerId')}
            isRequired={isAdmin}
            isDisabled={!isAdmin}
            description={isAdmin ? t('operators.wizard.customerIdHint') : t('operators.wizard.customerFixed')}
            fullWidth
            autoComplete="off"
            {...bindField(t, info.field('customerId'))}
          />
        )}
        <Select
          label={t('operators.fields.customerType')}
          items={customerTypeItems}
          value={info.values.customerType || null}
          onChange={(value) => info.setValues((v) => ({ ...v, customerType: value === null ? '' : String(value) }))}
          isRequired
          isDisabled={!isAdmin}
          fullWidth
        />
      </div>
      <Checkbox
        isSelected={info.values.createManualEndCustomerId === 'true'}
        onChange={(on) => info.setValues((v) => ({ ...v, createManualEndCustomerId: flag(on) }))}
      >
        {t('operators.fields.manualEndCustomerId')}
      </Checkbox>
    </Section>
  );
}
