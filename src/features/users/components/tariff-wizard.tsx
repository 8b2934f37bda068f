import { useState } from 'react';
import { berlinDate, type ContractDetail } from '../../../../contract/contracts';
import { useFormat } from '../../../i18n/format';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { fromDisplay, toDisplay, fromWire, toWire } from '../../../ui/date-range';
import { failureForCode, validationMessage } from '../../../ui/validation';
import { Wizard } from '../../../ui/wizard';
import { firstOfNextMonth, initialTariffValues, parseMoney, tariffFormIssues, type TariffFormValues } from '../user-rules';

export interface TariffWizardProps {
  isOpen: boolean;
  contract: ContractDetail;
  /** What the user entered in a refused write ('Erneut bearbeiten'). */
  initialValues?: TariffFormValues | null;
  onClose: () => void;
  onSubmit: (values: TariffFormValues) => Promise<void>;
}

/** The next `count` firsts of a month from `first` on (the only new tariff dates there are, spec 2 §5). */
function firstsOfMonth(first: string, count: number): string[] {
  const out = [first];
  while (out.length < count) out.push(firstOfNextMonth(out[out.length - 1]!));
  return out;
}

const MONEY_KEYS = ['fixTariff', 'varTariff', 'onboardingFee', 'fixTariffPerChargingRequest'] as const;
function localMoney(values: TariffFormValues, decimalComma: boolean): TariffFormValues {
  if (!decimalComma) return values;
  const out = { ...values };
  for (const key of MONEY_KEYS) out[key] = out[key].replace('.', ',');
  return out;
}

/** Spec 2 §5 edit tariff (2 steps: tariff, confirm); the rules are the contract's `tariffChangeIssues`. */
export function TariffWizard({ isOpen, contract, initialValues, onClose, onSubmit }: TariffWizardProps) {
  const t = useT();
  const f = useFormat();
  const [today] = useState(() => berlinDate(new Date()));
  const { locale } = useLocale();
  // The contract's amounts as a German user types them (0,45); a refused write's values as they were typed.
  const [start] = useState(() => initialValues ?? localMoney(initialTariffValues(contract, today), locale === 'de'));
  const [values, setValues] = useState<TariffFormValues>(start);
  // The cancellation date as typed (dd.MM.yyyy); the value holds the wire date once it parses.
  const [cancellationText, setCancellationText] = useState(() => toDisplay(fromWire(start.newTariffCancellationDate)));
  const [touched, setTouched] = useState<Partial<Record<keyof TariffFormValues, boolean>>>({});
  const issues = tariffFormIssues(values, today);
  const isValid = Object.keys(issues).length === 0;
  const set = (key: keyof TariffFormValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((s) => ({ ...s, [key]: true }));
  };
  const message = (key: keyof TariffFormValues) => {
    const code = touched[key] ? issues[key] : undefined;
    return code ? (validationMessage(t, failureForCode(code)) ?? t(`users.tariff.issues.${code}`)) : undefined;
  };
  // The 1st of this month is not in the past on the 1st itself.
  const firstDate = today.endsWith('-01') ? today : firstOfNextMonth(today);
  const dateItems = firstsOfMonth(firstDate, 24).map((d) => ({ id: d, label: f.date(d) }));
  const money = (s: string) => f.number(parseMoney(s) ?? 0, 2);

  const moneyField = (
    key: 'fixTariff' | 'varTariff' | 'onboardingFee' | 'fixTariffPerChargingRequest',
    unit: string,
    isRequired: boolean,
  ) => (
    <TextField
      label={`${t(`users.fields.${key === 'fixTariffPerChargingRequest' ? 'feePerRequest' : key}`)} (${unit})`}
      type="number"
      inputMode="decimal"
      isRequired={isRequired}
      value={values[key]}
      onChange={(v) => set(key, v)}
      errorMessage={message(key)}
      data-testid={`tariff-${key}`}
    />
  );

  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={t('users.tariff.title')}
      submitLabel={t('ui.common.save')}
      onSubmit={() => onSubmit(values)}
      size="lg"
      steps={[
        {
          id: 'tariff',
          title: t('users.tariff.stepTariff'),
          isValid,
          onNext: () => {
            setTouched({
              fixTariff: true,
              varTariff: true,
              onboardingFee: true,
              fixTariffPerChargingRequest: true,
              newTariffDate: true,
              newTariffCancellationDate: true,
            });
            return isValid;
          },
          content: (
            <div className="flex flex-col gap-4">
              {moneyField('fixTariff', t('users.units.perMonth'), true)}
              {moneyField('varTariff', t('users.units.perKwh'), true)}
              {moneyField('onboardingFee', 'EUR', false)}
              {moneyField('fixTariffPerChargingRequest', t('users.units.perRequest'), false)}
              <Select
                label={t('users.tariff.newTariffDate')}
                description={t('users.tariff.newTariffDateHint')}
                isRequired
                items={dateItems}
                value={values.newTariffDate}
                onChange={(v) => set('newTariffDate', v ? String(v) : '')}
                errorMessage={message('newTariffDate')}
              />
              <TextField
                label={t('users.tariff.cancellationDate')}
                description={t('users.tariff.dateFormat')}
                isRequired
                value={cancellationText}
                onChange={(v) => {
                  setCancellationText(v);
                  set('newTariffCancellationDate', toWire(fromDisplay(v)));
                }}
                errorMessage={
                  touched.newTariffCancellationDate && cancellationText && !fromDisplay(cancellationText)
                    ? t('validation.invalidDate')
                    : message('newTariffCancellationDate')
                }
                data-testid="tariff-cancellation"
              />
            </div>
          ),
        },
        {
          id: 'confirm',
          title: t('users.tariff.stepConfirm'),
          isValid,
          content: (
            <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(12rem,auto)_1fr]">
              {(
                [
                  [t('users.fields.fixTariff'), `${money(values.fixTariff)} ${t('users.units.perMonth')}`],
                  [t('users.fields.varTariff'), `${money(values.varTariff)} ${t('users.units.perKwh')}`],
                  [t('users.fields.onboardingFee'), `${money(values.onboardingFee)} EUR`],
                  [t('users.fields.feePerRequest'), `${money(values.fixTariffPerChargingRequest)} ${t('users.units.perRequest')}`],
                  [t('users.tariff.newTariffDate'), f.date(values.newTariffDate)],
                  [t('users.tariff.cancellationDate'), f.date(values.newTariffCancellationDate)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-muted">{label}</dt>
                  <dd className="mb-2 sm:mb-0">{value}</dd>
                </div>
              ))}
            </dl>
          ),
        },
      ]}
    />
  );
}
