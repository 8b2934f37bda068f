import type { ReactNode } from 'react';
import { DEFAULT_VAT_PERCENT } from '../../../../contract/enums';
import { formatMoney, useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { isAdminUserType, usesRfid, wireDate, withBilling } from '../user-create-rules';
import { maskIban, parseMoney } from '../user-rules';
import type { UserWizardForm } from './user-wizard-form';

type Row = [string, ReactNode];

/** A VAT rate as the summary shows it: '7 %'; blank with billing is the standard rate the bills are made at. */
const vatRateText = (typed: string, billing: boolean) => {
  const rate = typed.trim();
  return rate ? `${rate} %` : billing ? `${DEFAULT_VAT_PERCENT} %` : '–';
};

const commaList = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(', ');

/**
 * The summary in spec 2 §2's order; location rows hidden for admin types, billing rows when billing
 * is off. Focusable, so a keyboard user can scroll a summary taller than the dialog (axe:
 * scrollable-region-focusable).
 */
export function ConfirmStep({ form }: { form: UserWizardForm }) {
  const t = useT();
  const f = useFormat();
  const { values, contract, pdf } = form;
  const admin = isAdminUserType(values.userType);
  const location = (form.locations.data ?? []).find((l) => l.cpoId === values.cpoId && l.locationId === values.locationId);
  // Money reads de-DE in both languages (spec 1 §9).
  const moneyText = (s: string) => formatMoney(parseMoney(s) ?? 0);
  const dateText = (s: string) => {
    const wire = wireDate(s);
    return wire ? f.date(wire) : '';
  };

  const rows: Row[] = [
    [t('users.fields.endCustomerId'), values.endCustomerId.trim() || t('users.create.generated')],
    [t('users.fields.contractNumber'), contract?.contractNumber ?? t('users.create.generated')],
    [t('users.fields.userType'), t(`users.userTypes.${values.userType}`)],
    [t('users.fields.name'), `${values.firstName.trim()} ${values.lastName.trim()}`],
    [
      t('users.fields.address'),
      [values.careOf.trim() && `c/o ${values.careOf.trim()}`, values.street.trim(), `${values.zipCode.trim()} ${values.city.trim()}`]
        .filter(Boolean)
        .join(', '),
    ],
    [t('users.fields.email'), values.email.trim()],
    ...(values.companyName.trim()
      ? ([
          [t('users.fields.companyName'), values.companyName.trim()],
          [t('users.fields.customerVatId'), values.customerVatId.trim() || '–'],
          [t('users.fields.buyerReference'), values.buyerReference.trim() || '–'],
        ] as Row[])
      : []),
    ...(admin
      ? []
      : ([
          [t('users.fields.location'), location ? `${location.locationName} (${location.locationId})` : '–'],
          [t('users.fields.parkingLots'), values.parkingLotNumbers.join(', ') || '–'],
        ] as Row[])),
    [t('users.fields.authType'), t(`users.authTypes.${admin ? 'RFID' : values.authType}`)],
    ...(usesRfid(values)
      ? ([
          values.rfidType === 'SN'
            ? [t('users.fields.rfidSerials'), commaList(values.rfidSerialId)]
            : [t('users.fields.rfidTags'), commaList(values.rfidTags)],
        ] as Row[])
      : []),
    [t('users.fields.billingType'), t(`users.billingTypes.${values.billingType}`)],
    [
      t('users.fields.contractPdf'),
      pdf.base64 ? values.pdfName : contract?.pdfAvailable && contract.contractInfo.contractPDF ? contract.contractInfo.contractPDF : '–',
    ],
    [t('users.fields.startDate'), dateText(values.startDate)],
    [t('users.fields.endDate'), dateText(values.endDate) || t('users.fields.unlimited')],
    ...(withBilling(values)
      ? ([
          [t('users.fields.billingCycle'), values.billingCycle ? t(`users.billingCycles.${values.billingCycle}`) : '–'],
          [t('users.fields.fixTariff'), moneyText(values.fixTariff)],
          [t('users.fields.varTariff'), moneyText(values.varTariff)],
          [t('users.fields.onboardingFee'), moneyText(values.onboardingFee)],
          [t('users.fields.feePerRequest'), moneyText(values.fixTariffPerChargingRequest)],
          [t('users.fields.paymentMethod'), values.paymentMethod ? t(`users.paymentMethods.${values.paymentMethod}`) : '–'],
          ...(values.paymentMethod === 'SEPA'
            ? ([
                [t('users.fields.mandateReference'), values.mandateReference.trim()],
                [t('users.create.iban'), maskIban(values.iban) ?? '–'],
              ] as Row[])
            : []),
        ] as Row[])
      : []),
    [t('users.fields.debitAccountNr'), values.debitAccountNr.trim() || '–'],
    [t('users.fields.costCenterNumber'), values.costCenterNumber.trim() || '–'],
    // With billing, a blank rate is billed at the standard rate, so the summary says so.
    [t('users.fields.vatId'), vatRateText(values.vatId, withBilling(values))],
  ];

  return (
    <section tabIndex={0} aria-label={t('users.create.stepConfirm')} className="rounded-md">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(12rem,auto)_1fr]" data-testid="create-summary">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted">{label}</dt>
            <dd className="mb-2 min-w-0 break-words sm:mb-0">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
