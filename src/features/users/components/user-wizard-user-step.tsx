import { useT } from '../../../i18n/i18n-context';
import { AddressFields } from '../../../ui/address-fields';
import { Select } from '../../../ui/select';
import { StatusBadge } from '../../../ui/status-badge';
import { TextField } from '../../../ui/text-field';
import { operatorLabel } from '../../operators/api/operator-queries';
import type { UserWizardForm } from './user-wizard-form';

/** Step 1: the operator, the end-customer id where the operator types its own, name, e-mail and address. */
export function UserStep({ form }: { form: UserWizardForm }) {
  const t = useT();
  const { values, set, bind, fixedOperator, operator, operators, currentIdCheck } = form;
  const operatorItems =
    fixedOperator !== null
      ? [{ id: fixedOperator, label: operator.data ? operatorLabel(operator.data) : fixedOperator }]
      : (operators.data ?? []).map((o) => ({ id: o.cpoId, label: operatorLabel(o) }));
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Select
        label={t('users.fields.operator')}
        items={operatorItems}
        value={values.cpoId || null}
        onChange={(v) => {
          set('cpoId', v ? String(v) : '');
          set('locationId', '');
          set('parkingLotNumbers', []);
        }}
        isDisabled={fixedOperator !== null}
        description={fixedOperator !== null ? t('users.create.operatorFixed') : undefined}
        errorMessage={form.message('cpoId')}
        isRequired
        fullWidth
      />
      {form.manualIds && (
        <div className="flex flex-col gap-2">
          <TextField
            label={t('users.fields.endCustomerId')}
            isRequired
            fullWidth
            autoComplete="off"
            description={t('users.create.endCustomerIdHint')}
            data-testid="create-endCustomerId"
            {...bind('endCustomerId')}
            onBlur={() => void form.checkId()}
          />
          {values.endCustomerId.trim() && (
            <div aria-live="polite">
              <StatusBadge tone={currentIdCheck === 'validated' ? 'success' : 'danger'}>
                {t(`users.create.idCheck.${currentIdCheck ?? 'notValidated'}`)}
              </StatusBadge>
            </div>
          )}
        </div>
      )}
      <TextField label={t('users.create.firstName')} isRequired fullWidth autoComplete="off" {...bind('firstName')} />
      <TextField label={t('users.create.lastName')} isRequired fullWidth autoComplete="off" {...bind('lastName')} />
      <TextField label={t('users.fields.email')} type="email" isRequired fullWidth autoComplete="off" {...bind('email')} />
      <TextField
        label={t('users.fields.companyName')}
        fullWidth
        autoComplete="off"
        description={t('users.create.companyNameHint')}
        {...bind('companyName')}
      />
      <TextField
        label={t('users.fields.customerVatId')}
        fullWidth
        autoComplete="off"
        description={t('users.create.customerVatIdHint')}
        {...bind('customerVatId')}
      />
      <TextField
        label={t('users.fields.buyerReference')}
        fullWidth
        autoComplete="off"
        description={t('users.create.buyerReferenceHint')}
        {...bind('buyerReference')}
      />
      <div className="hidden md:block" />
      <AddressFields field={bind} labels="users.create" />
    </div>
  );
}
