import { useT } from '../../../i18n/i18n-context';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { CONTRACT_PAYMENT_METHODS, withBilling } from '../user-create-rules';
import { enumItems, type UserWizardForm } from './user-wizard-form';

/** Step 4: with billing, the payment method (SEPA with its mandate) and IBAN; the ERP numbers. */
export function OtherStep({ form }: { form: UserWizardForm }) {
  const t = useT();
  const { values, set, touch, bind } = form;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {withBilling(values) && (
        <>
          <Select
            label={t('users.fields.paymentMethod')}
            items={enumItems(t, CONTRACT_PAYMENT_METHODS, 'users.paymentMethods')}
            value={values.paymentMethod || null}
            onChange={(v) => {
              set('paymentMethod', v ? String(v) : '');
              touch('paymentMethod');
            }}
            errorMessage={form.message('paymentMethod')}
            isRequired
            fullWidth
          />
          {values.paymentMethod === 'SEPA' ? (
            <TextField
              label={t('users.fields.mandateReference')}
              isRequired
              fullWidth
              data-testid="create-mandateReference"
              {...bind('mandateReference')}
            />
          ) : (
            <div className="hidden md:block" />
          )}
          <TextField label={t('users.create.iban')} fullWidth autoComplete="off" {...bind('iban')} />
          <div className="hidden md:block" />
        </>
      )}
      <TextField label={t('users.fields.debitAccountNr')} inputMode="numeric" fullWidth {...bind('debitAccountNr')} />
      <TextField label={t('users.fields.costCenterNumber')} inputMode="numeric" fullWidth {...bind('costCenterNumber')} />
      <TextField
        label={t('users.create.vatId')}
        inputMode="numeric"
        fullWidth
        description={t('users.create.vatIdHint')}
        data-testid="create-vatId"
        {...bind('vatId')}
      />
    </div>
  );
}
