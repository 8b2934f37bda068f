import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { ContractDetail } from '../../../../contract/contracts';
import { billingCycles } from '../../../../contract/enums';
import { useSession } from '../../../auth/session-context';
import { useFormat } from '../../../i18n/format';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { MultiSelect } from '../../../ui/multi-select';
import { RadioGroup } from '../../../ui/radio-group';
import { Select } from '../../../ui/select';
import { StatusBadge } from '../../../ui/status-badge';
import { TextField } from '../../../ui/text-field';
import { Wizard } from '../../../ui/wizard';
import { locationDropdownQueryOptions } from '../../locations/api/location-queries';
import { isEndCustomerIdFree } from '../api/user-queries';
import { ALL_OPERATORS, operatorDetailQueryOptions, operatorLabel, operatorListQueryOptions } from '../../operators/api/operator-queries';
import {
  CONTRACT_PAYMENT_METHODS,
  STEP_FIELDS,
  checkPdf,
  defaultBillingType,
  defaultPaymentMethod,
  emptyUserForm,
  isAdminUserType,
  isLockedContract,
  parkingLotsOf,
  stepIsValid,
  toBase64,
  userFormIssues,
  valuesFromContract,
  usesRfid,
  wireDate,
  withBilling,
  withUserType,
  type UserField,
  type UserFormValues,
} from '../user-create-rules';
import { parseMoney } from '../user-rules';

type IdCheck = 'exists' | 'validated' | 'notValidated' | null;

export interface UserWizardProps {
  isOpen: boolean;
  /** The contract to edit (the edit wizard); none: a new end customer. */
  contract?: ContractDetail | null;
  /** What the user entered in a refused creation ('Erneut bearbeiten'). */
  initial?: { values: UserFormValues; pdfBase64: string | null } | null;
  onClose: () => void;
  onSubmit: (values: UserFormValues, pdfBase64: string | null) => Promise<void>;
}

/**
 * 'Nutzer anlegen' (spec 2 §2): user info, auth info, contract terms, other info, confirm. Next only
 * when the step's fields have no problem (`userFormIssues`: the contract's rules on the payload).
 */
export function UserWizard({ isOpen, contract, initial, onClose, onSubmit }: UserWizardProps) {
  const t = useT();
  const f = useFormat();
  const { claims, isAdmin } = useSession();
  // Spec 2 §4: an Operator-type account creates for its own (first) operator only.
  // An edit keeps the contract's operator (the server refuses another).
  const fixedOperator = contract ? contract.cpoId : claims?.customer_type === 'Operator' && !isAdmin ? (claims.cpo_id[0] ?? '') : null;
  const { locale } = useLocale();
  const [values, setValues] = useState<UserFormValues>(
    () =>
      initial?.values ??
      (contract ? valuesFromContract(contract, locale === 'de') : emptyUserForm(fixedOperator ?? claims?.cpo_id[0] ?? '')),
  );
  const locked = !!contract && isLockedContract(contract);
  const [pdf, setPdf] = useState<{ base64: string | null; issue: 'pdfOnly' | '3mb' | null }>({
    base64: initial?.pdfBase64 ?? null,
    issue: null,
  });
  const [touched, setTouched] = useState<Partial<Record<UserField, boolean>>>({});
  const [idCheck, setIdCheck] = useState<{ id: string; result: IdCheck }>({ id: '', result: null });
  // The billing defaults are applied once per operator the user picks (not over what they chose).
  const [defaultsFor, setDefaultsFor] = useState<string | null>(initial ? initial.values.cpoId : contract ? contract.cpoId : null);

  const operators = useQuery({
    ...operatorListQueryOptions(ALL_OPERATORS),
    select: (page) => page.response,
    enabled: isOpen && fixedOperator === null,
  });
  const operator = useQuery({ ...operatorDetailQueryOptions(values.cpoId), enabled: isOpen && !!values.cpoId });
  const locations = useQuery({ ...locationDropdownQueryOptions(), enabled: isOpen });
  const manualIds = contract ? contract.createManualEndCustomerId : (operator.data?.createManualEndCustomerId ?? false);

  const preference = operator.data?.cpoPaymentDetails?.cpoPaymentPreference;
  if (operator.data && defaultsFor !== operator.data.cpoId) {
    setDefaultsFor(operator.data.cpoId);
    setValues((v) => ({ ...v, billingType: defaultBillingType(preference), paymentMethod: defaultPaymentMethod(preference) }));
  }

  // The contract's own id needs no check.
  const currentIdCheck: IdCheck =
    contract && values.endCustomerId.trim() === contract.endCustomerId
      ? 'validated'
      : idCheck.id === values.endCustomerId.trim()
        ? idCheck.result
        : null;
  const issues = userFormIssues(values, {
    manualIds,
    idCheck: currentIdCheck,
    pdfIssue: pdf.issue,
    currentEndCustomerId: contract?.endCustomerId,
  });
  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const touch = (key: UserField) => setTouched((s) => ({ ...s, [key]: true }));
  const message = (key: UserField) => {
    const code = touched[key] ? issues[key] : undefined;
    if (!code) return undefined;
    const max = /^max(\d+)$/.exec(code);
    if (max) return t('users.create.issues.max', { max: max[1]! });
    return t(`users.create.issues.${code}`);
  };
  const bind = (key: keyof UserFormValues & UserField) => ({
    value: values[key] as string,
    onChange: (v: string) => set(key, v as never),
    onBlur: () => touch(key),
    errorMessage: message(key),
  });
  const touchStep = (index: number) => {
    setTouched((s) => ({ ...s, ...Object.fromEntries(STEP_FIELDS[index]!.map((k) => [k, true])) }));
    return stepIsValid(issues, index);
  };

  const checkId = async () => {
    const id = values.endCustomerId.trim();
    touch('endCustomerId');
    if (!id || !values.cpoId || issues.endCustomerId || id === contract?.endCustomerId) return;
    try {
      const free = await isEndCustomerIdFree(id, contract ? { contractKey: contract.contractKey } : { cpoId: values.cpoId });
      setIdCheck({ id, result: free ? 'validated' : 'exists' });
    } catch {
      setIdCheck({ id, result: 'notValidated' });
    }
  };

  const choosePdf = async (file: File | undefined) => {
    touch('pdf');
    if (!file) {
      set('pdfName', '');
      setPdf({ base64: null, issue: null });
      return;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const issue = checkPdf(bytes);
    set('pdfName', file.name);
    setPdf({ base64: issue ? null : toBase64(bytes), issue });
  };

  const admin = isAdminUserType(values.userType);
  const rfid = usesRfid(values);
  const billing = withBilling(values);
  const locationRows = (locations.data ?? []).filter((l) => l.cpoId === values.cpoId);
  const location = locationRows.find((l) => l.locationId === values.locationId);
  const lotItems = parkingLotsOf(location).map((p) => ({ id: p, label: p }));
  const enumItems = (list: readonly string[], prefix: string) => list.map((id) => ({ id, label: t(`${prefix}.${id}`) }));
  const userTypeItems = enumItems(
    isAdmin || contract?.userType === 'GLOBAL_ADMIN' ? ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN'] : ['REGULAR', 'LOCAL_ADMIN'],
    'users.userTypes',
  );
  const operatorItems =
    fixedOperator !== null
      ? [{ id: fixedOperator, label: operator.data ? operatorLabel(operator.data) : fixedOperator }]
      : (operators.data ?? []).map((o) => ({ id: o.cpoId, label: operatorLabel(o) }));

  const moneyField = (
    key: 'fixTariff' | 'varTariff' | 'onboardingFee' | 'fixTariffPerChargingRequest',
    unit: string,
    required: boolean,
  ) => (
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
  const moneyText = (s: string) => f.number(parseMoney(s) ?? 0, 2);
  const dateText = (s: string) => {
    const wire = wireDate(s);
    return wire ? f.date(wire) : '';
  };

  const steps = [
    {
      id: 'user',
      title: t('users.create.stepUser'),
      content: (
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
            errorMessage={message('cpoId')}
            isRequired
            fullWidth
          />
          {manualIds && (
            <div className="flex flex-col gap-2">
              <TextField
                label={t('users.fields.endCustomerId')}
                isRequired
                fullWidth
                autoComplete="off"
                description={t('users.create.endCustomerIdHint')}
                data-testid="create-endCustomerId"
                {...bind('endCustomerId')}
                onBlur={() => void checkId()}
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
          <TextField label={t('users.create.careOf')} fullWidth autoComplete="off" {...bind('careOf')} />
          <TextField label={t('users.create.street')} isRequired fullWidth autoComplete="off" {...bind('street')} />
          <TextField label={t('users.create.zipCode')} type="number" inputMode="numeric" isRequired fullWidth {...bind('zipCode')} />
          <TextField label={t('users.create.city')} isRequired fullWidth autoComplete="off" {...bind('city')} />
        </div>
      ),
    },
    {
      id: 'auth',
      title: t('users.create.stepAuth'),
      content: (
        <div className="flex flex-col gap-4">
          <RadioGroup
            label={t('users.fields.userType')}
            orientation="horizontal"
            isRequired
            items={userTypeItems}
            value={values.userType}
            onChange={(v) => setValues((s) => withUserType(s, v))}
          />
          {!admin && (
            <div className="grid gap-4 md:grid-cols-2">
              <Select
                label={t('users.fields.location')}
                items={locationRows.map((l) => ({ id: l.locationId, label: l.locationIdName }))}
                value={values.locationId || null}
                onChange={(v) => {
                  setValues((s) => ({ ...s, locationId: v ? String(v) : '', parkingLotNumbers: [] }));
                  touch('locationId');
                }}
                errorMessage={message('locationId')}
                isRequired
                fullWidth
              />
              <MultiSelect
                label={t('users.fields.parkingLots')}
                items={lotItems}
                value={values.parkingLotNumbers}
                onChange={(v) => {
                  set('parkingLotNumbers', v.map(String).sort());
                  touch('parkingLotNumbers');
                }}
                isDisabled={!values.locationId}
                description={values.locationId && lotItems.length === 0 ? t('users.create.noParkingLots') : undefined}
                errorMessage={message('parkingLotNumbers')}
                isRequired
                fullWidth
              />
            </div>
          )}
          <RadioGroup
            label={t('users.fields.authType')}
            orientation="horizontal"
            isRequired
            items={enumItems(['APP', 'RFID', 'APP_AND_RFID'], 'users.authTypes').map((i) => ({
              ...i,
              isDisabled: admin && i.id !== 'RFID',
            }))}
            value={values.authType}
            onChange={(v) => set('authType', v)}
            description={admin ? t('users.create.rfidForAdmins') : undefined}
          />
          {rfid && (
            <>
              <RadioGroup
                label={t('users.create.rfidType')}
                orientation="horizontal"
                isRequired
                items={[
                  { id: 'TAG', label: t('users.fields.rfidTags') },
                  { id: 'SN', label: t('users.fields.rfidSerials') },
                ]}
                value={values.rfidType}
                onChange={(v) => set('rfidType', v)}
              />
              {values.rfidType === 'SN' ? (
                <TextField
                  label={t('users.fields.rfidSerials')}
                  isRequired
                  fullWidth
                  description={t('users.create.commaHint')}
                  data-testid="create-rfidSerialId"
                  {...bind('rfidSerialId')}
                />
              ) : (
                <TextField
                  label={t('users.fields.rfidTags')}
                  isRequired
                  fullWidth
                  description={t('users.create.commaHint')}
                  data-testid="create-rfidTags"
                  {...bind('rfidTags')}
                />
              )}
            </>
          )}
        </div>
      ),
    },
    {
      id: 'terms',
      title: t('users.create.stepTerms'),
      content: (
        <div className="flex flex-col gap-4">
          <RadioGroup
            label={t('users.fields.billingType')}
            orientation="horizontal"
            isRequired
            items={enumItems(['WITH_BILLING', 'NO_BILLING'], 'users.billingTypes')}
            isDisabled={locked}
            description={locked ? t('users.edit.locked') : undefined}
            value={values.billingType}
            onChange={(v) => set('billingType', v)}
          />
          {billing && (
            <div className="grid gap-4 md:grid-cols-2">
              <Select
                label={t('users.fields.billingCycle')}
                items={enumItems(billingCycles, 'users.billingCycles')}
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
            chosen={pdf.base64 ? values.pdfName : ''}
            error={message('pdf')}
            onChoose={(file) => void choosePdf(file)}
          />
        </div>
      ),
    },
    {
      id: 'other',
      title: t('users.create.stepOther'),
      content: (
        <div className="grid gap-4 md:grid-cols-2">
          {billing && (
            <>
              <Select
                label={t('users.fields.paymentMethod')}
                items={enumItems(CONTRACT_PAYMENT_METHODS, 'users.paymentMethods')}
                value={values.paymentMethod || null}
                onChange={(v) => {
                  set('paymentMethod', v ? String(v) : '');
                  touch('paymentMethod');
                }}
                errorMessage={message('paymentMethod')}
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
          <TextField label={t('users.create.vatId')} inputMode="numeric" fullWidth {...bind('vatId')} />
        </div>
      ),
    },
  ];

  // Spec 2 §2: the summary in its order; location rows hidden for admin types, billing rows when billing is off.
  const rows: [string, ReactNode][] = [
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
    ...(admin
      ? []
      : ([
          [t('users.fields.location'), location ? `${location.locationId}:${location.locationName}` : '–'],
          [t('users.fields.parkingLots'), values.parkingLotNumbers.join(', ') || '–'],
        ] as [string, ReactNode][])),
    [t('users.fields.authType'), t(`users.authTypes.${admin ? 'RFID' : values.authType}`)],
    ...(rfid
      ? ([
          values.rfidType === 'SN'
            ? [
                t('users.fields.rfidSerials'),
                values.rfidSerialId
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean)
                  .join(', '),
              ]
            : [
                t('users.fields.rfidTags'),
                values.rfidTags
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean)
                  .join(', '),
              ],
        ] as [string, ReactNode][])
      : []),
    [t('users.fields.billingType'), t(`users.billingTypes.${values.billingType}`)],
    [
      t('users.fields.contractPdf'),
      pdf.base64 ? values.pdfName : contract?.pdfAvailable && contract.contractInfo.contractPDF ? contract.contractInfo.contractPDF : '–',
    ],
    [t('users.fields.startDate'), dateText(values.startDate)],
    [t('users.fields.endDate'), dateText(values.endDate) || t('users.fields.unlimited')],
    ...(billing
      ? ([
          [t('users.fields.billingCycle'), values.billingCycle ? t(`users.billingCycles.${values.billingCycle}`) : '–'],
          [`${t('users.fields.fixTariff')} (EUR)`, moneyText(values.fixTariff)],
          [`${t('users.fields.varTariff')} (EUR)`, moneyText(values.varTariff)],
          [`${t('users.fields.onboardingFee')} (EUR)`, moneyText(values.onboardingFee)],
          [`${t('users.fields.feePerRequest')} (${t('users.units.perRequest')})`, moneyText(values.fixTariffPerChargingRequest)],
          [t('users.fields.paymentMethod'), values.paymentMethod ? t(`users.paymentMethods.${values.paymentMethod}`) : '–'],
          ...(values.paymentMethod === 'SEPA'
            ? ([[t('users.fields.mandateReference'), values.mandateReference.trim()]] as [string, ReactNode][])
            : []),
        ] as [string, ReactNode][])
      : []),
    [t('users.fields.debitAccountNr'), values.debitAccountNr.trim() || '–'],
    [t('users.fields.costCenterNumber'), values.costCenterNumber.trim() || '–'],
    [t('users.fields.vatId'), values.vatId.trim() ? `${values.vatId.trim()} %` : '–'],
  ];

  return (
    <Wizard
      isOpen={isOpen}
      onClose={onClose}
      title={contract ? t('users.edit.title') : t('users.create.title')}
      submitLabel={t('ui.common.save')}
      onSubmit={() => onSubmit(values, pdf.base64)}
      steps={[
        ...steps.map((s, index) => ({ ...s, isValid: stepIsValid(issues, index), onNext: () => touchStep(index) })),
        {
          id: 'confirm',
          title: t('users.create.stepConfirm'),
          isValid: [0, 1, 2, 3].every((i) => stepIsValid(issues, i)),
          content: (
            // Focusable, so a keyboard user can scroll a summary taller than the dialog (axe: scrollable-region-focusable).
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
          ),
        },
      ]}
    />
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
