import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContractDetail } from '../../../../contract/contracts';
import { useSession } from '../../../auth/session-context';
import { useLocale, useT, type TranslateFn } from '../../../i18n/i18n-context';
import { locationDropdownQueryOptions } from '../../locations/api/location-queries';
import { ALL_OPERATORS, operatorDetailQueryOptions, operatorListQueryOptions } from '../../operators/api/operator-queries';
import { failureForCode, validationMessage } from '../../../ui/validation';
import { isEndCustomerIdFree } from '../api/user-queries';
import {
  STEP_FIELDS,
  checkPdf,
  defaultBillingType,
  defaultPaymentMethod,
  emptyUserForm,
  isLockedContract,
  parkingLotsOf,
  stepIsValid,
  toBase64,
  unknownParkingLots,
  userFormIssues,
  valuesFromContract,
  type UserField,
  type UserFormValues,
} from '../user-create-rules';

export type IdCheck = 'exists' | 'validated' | 'notValidated' | null;

export interface UserWizardSource {
  isOpen: boolean;
  /** The contract to edit (the edit wizard); none: a new end customer. */
  contract?: ContractDetail | null;
  /** What the user entered in a refused creation ('Erneut bearbeiten'). */
  initial?: { values: UserFormValues; pdfBase64: string | null } | null;
}

/** The wizard's state and its rules, shared by the steps (`UserWizard` and its step files). */
export type UserWizardForm = ReturnType<typeof useUserWizardForm>;

/** Enum values as select or radio items, labelled from `<prefix>.<value>`. */
export const enumItems = (t: TranslateFn, list: readonly string[], prefix: string) =>
  list.map((id) => ({ id, label: t(`${prefix}.${id}`) }));

/**
 * What the user entered and what each field's problem is (`userFormIssues`: the contract's rules on
 * the payload), the operator's rules (manual ids, billing defaults), the id check and the PDF.
 */
export function useUserWizardForm({ isOpen, contract, initial }: UserWizardSource) {
  const t = useT();
  const { claims, isAdmin } = useSession();
  // Spec 2 §4: an Operator-type account creates for its own (first) operator only.
  // An edit keeps the contract's operator (the server refuses another).
  const fixedOperator = contract ? contract.cpoId : claims?.customer_type === 'Operator' && !isAdmin ? (claims.cpo_id[0] ?? '') : null;
  const { locale } = useLocale();
  const [values, setValues] = useState<UserFormValues>(
    () =>
      // A write kept from an older version lacks the fields added since: they start empty.
      (initial ? { ...emptyUserForm(initial.values.cpoId), ...initial.values } : undefined) ??
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
  const knownLots =
    locations.data && values.locationId ? parkingLotsOf(locations.data.find((l) => l.locationId === values.locationId)) : null;
  const issues = userFormIssues(values, {
    manualIds,
    idCheck: currentIdCheck,
    pdfIssue: pdf.issue,
    currentEndCustomerId: contract?.endCustomerId,
    knownLots,
  });
  const unknownLots = unknownParkingLots(values.parkingLotNumbers, knownLots);
  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));
  const touch = (key: UserField) => setTouched((s) => ({ ...s, [key]: true }));
  const message = (key: UserField) => {
    // An unknown lot is named at once: the edit wizard opens with it, before anything is touched.
    const code = touched[key] || issues[key] === 'unknownParkingLot' ? issues[key] : undefined;
    if (!code) return undefined;
    if (code === 'unknownParkingLot') return t('dataRules.unknownParkingLots', { lots: unknownLots.join(', ') });
    return validationMessage(t, failureForCode(code)) ?? t(`users.create.issues.${code}`);
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

  return {
    contract,
    isAdmin,
    fixedOperator,
    locked,
    manualIds,
    values,
    setValues,
    set,
    touch,
    bind,
    message,
    issues,
    touchStep,
    currentIdCheck,
    checkId,
    pdf,
    choosePdf,
    operators,
    operator,
    locations,
    unknownLots,
  };
}
