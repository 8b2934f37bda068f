// The wizard's form as a write stores it (api/user-writes.ts) and the rules read it (user-create-rules.ts).

/** The form as typed (strings; parking lots a list). The PDF's bytes travel beside it. */
export interface UserFormValues {
  cpoId: string;
  endCustomerId: string;
  firstName: string;
  lastName: string;
  email: string;
  careOf: string;
  street: string;
  zipCode: string;
  city: string;
  userType: string;
  locationId: string;
  parkingLotNumbers: string[];
  authType: string;
  rfidType: string;
  /** Comma lists as typed (spec 2 §5: trimmed before submit). */
  rfidTags: string;
  rfidSerialId: string;
  billingType: string;
  billingCycle: string;
  fixTariff: string;
  varTariff: string;
  onboardingFee: string;
  fixTariffPerChargingRequest: string;
  /** dd.MM.yyyy as typed. */
  startDate: string;
  endDate: string;
  /** The chosen PDF's file name ('' for none). */
  pdfName: string;
  paymentMethod: string;
  mandateReference: string;
  iban: string;
  debitAccountNr: string;
  costCenterNumber: string;
  /** The contract's VAT rate in percent (blank: 19). */
  vatId: string;
  /** A business customer: company name, its VAT id (BT-48), its order or buyer reference (BT-10). */
  companyName: string;
  customerVatId: string;
  buyerReference: string;
}
