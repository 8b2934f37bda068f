import { billingCycles } from '../../../../contract/enums';
import { useT } from '../../../i18n/i18n-context';
import { RadioGroup } from '../../../ui/radio-group';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { withBilling } from '../user-create-rules';
import { enumItems, type UserWizardForm } from './user-wizard-form';

type MoneyKey = 'fixTariff' | 'varTariff' | 'onboardingFee' | 'fixTariffPerChargingRequest';

/** Step 3: billing or not, the billing cycle and the four tariffs, start and end date, the contract PDF. */
export function TermsStep({ form }: { form: UserWizardForm }) {
  const t = useT();
  const { values, set, bind, locked, contract } = form;
  const moneyField = (key: MoneyKey, unit: string, required: boolean) => (
    <TextField
      label={`${t(`users.fields.${key === 'fixTariffPerChargingRequest' ? 'feePerRequest' : key}`)} (${unit})`}
      type="number"
      inputMode="decimal"
      isRequired={required}
      fullWidth
      isDisabled={locked}
      description={locked ? t('users.edit.locked') : t('users.create.moneyHint')}
      data-testid={`create-${key}`}
      {...bind(key)}
    />
  );
  return (
    <div className="flex flex-col gap-4">
      <RadioGroup
        label={t('users.fields.billingType')}
        orientation="horizontal"
        isRequired
        items={enumItems(t, ['WITH_BILLING', 'NO_BILLING'], 'users.billingTypes')}
        isDisabled={locked}
        description={locked ? t('users.edit.locked') : undefined}
        value={values.billingType}
        onChange={(v) => set('billingType', v)}
      />
      {withBilling(values) && (
        <div className="grid gap-4 md:grid-cols-2">
          <Select
            label={t('users.fields.billingCycle')}
            items={enumItems(t, billingCycles, 'users.billingCycles')}
            value={values.billingCycle || null}
            onChange={(v) => set('billingCycle', v ? String(v) : '')}
            fullWidth
          />
          <div className="hidden md:block" />
          {moneyField('fixTariff', t('users.units.perMonth'), true)}
          {moneyField('varTariff', t('users.units.perKwh'), true)}
          {moneyField('onboardingFee', 'EUR', false)}
          {moneyField('fixTariffPerChargingRequest', t('users.units.perRequest'), false)}
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('users.fields.startDate')}
          description={locked ? t('users.edit.locked') : t('users.tariff.dateFormat')}
          isDisabled={locked}
          isRequired
          fullWidth
          data-testid="create-startDate"
          {...bind('startDate')}
        />
        <TextField
          label={t('users.fields.endDate')}
          description={t('users.create.endDateHint')}
          fullWidth
          data-testid="create-endDate"
          {...bind('endDate')}
        />
      </div>
      <PdfField
        label={t('users.fields.contractPdf')}
        hint={
          locked
            ? t('users.edit.locked')
            : contract?.pdfAvailable && contract.contractInfo.contractPDF
              ? t('users.edit.currentPdf', { name: contract.contractInfo.contractPDF })
              : t('users.create.pdfHint')
        }
        isDisabled={locked}
        chosen={form.pdf.base64 ? values.pdfName : ''}
        error={form.message('pdf')}
        onChoose={(file) => void form.choosePdf(file)}
      />
    </div>
  );
}

/**
 * The contract PDF: a native file input (the browser's own picker, also on tablets), visually
 * replaced by a 44 px button-like label in the user's language; the chosen name or the hint below.
 */
function PdfField({
  label,
  hint,
  chosen,
  error,
  isDisabled,
  onChoose,
}: {
  label: string;
  hint: string;
  chosen: string;
  error?: string;
  isDisabled?: boolean;
  onChoose: (file: File | undefined) => void;
}) {
  const t = useT();
  return (
    <div className="flex flex-col gap-1">
      <span id="create-pdf-label" className="text-sm font-medium text-fg">
        {label}
      </span>
      <label
        aria-disabled={isDisabled || undefined}
        className="relative inline-flex min-h-11 w-fit cursor-pointer aria-disabled:cursor-not-allowed aria-disabled:opacity-50 items-center rounded-md border border-border bg-surface px-4 text-base font-medium text-fg hover:bg-surface-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus"
      >
        {t('users.create.pdfChoose')}
        <input
          type="file"
          accept="application/pdf"
          data-testid="create-pdf"
          aria-labelledby="create-pdf-label"
          aria-describedby="create-pdf-hint create-pdf-error"
          aria-invalid={error ? true : undefined}
          className="sr-only"
          disabled={isDisabled}
          onChange={(e) => onChoose(e.currentTarget.files?.[0])}
        />
      </label>
      <p id="create-pdf-hint" className="text-sm text-muted">
        {chosen ? t('users.create.pdfChosen', { name: chosen }) : hint}
      </p>
      <p id="create-pdf-error" className="text-sm text-danger" aria-live="polite">
        {error}
      </p>
    </div>
  );
}
