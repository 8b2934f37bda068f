import { formatEndCustomerId, germanVatIdCheckDigit } from '../../../contract/contracts';
import type { ContractStatus, PaymentMethod, UserType } from '../../../contract/enums';
import type { contracts, contractTariffs, pendingTariffChanges } from '../db/schema/contracts';
import type { locations } from '../db/schema/locations';
import type { connectors } from '../db/schema/stations';
import { address, ascii, DAY, germanIban, isoDate, type SeedContext } from './common';
import { firstNames, lastNames } from './german-data';
import { cardStock, type Card } from './rfid';

/** End customers and their contracts, with the RFID cards they were issued and those left in stock. */
export function drawContracts(
  ctx: SeedContext,
  locationRows: (typeof locations.$inferInsert)[],
  connectorRows: (typeof connectors.$inferInsert)[],
) {
  const { rnd, now, spec } = ctx;
  const lotsByLocation = new Map<string, string[]>();
  for (const c of connectorRows) {
    if (c.parkingLot) lotsByLocation.set(c.locationId!, [...(lotsByLocation.get(c.locationId!) ?? []), c.parkingLot]);
  }
  const forcedStatuses: ContractStatus[] = ['ACTIVE', 'CREATED_UNSIGNED', 'CREATED_SIGNED', 'BLOCKED', 'EXPIRED', 'UNSIGNED_EXPIRED'];
  const forcedUserTypes: UserType[] = ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN', 'AD_HOC'];
  const contractRows: (typeof contracts.$inferInsert)[] = [];
  const cards = cardStock(rnd);
  const usedIds = new Set<string>();
  const contractTags = new Map<string, Card[]>();
  for (let i = 0; i < spec.contracts; i++) {
    const loc = locationRows[rnd.int(0, locationRows.length - 1)];
    const userType =
      i < forcedUserTypes.length ? forcedUserTypes[i] : rnd.weighted<UserType>({ REGULAR: 85, LOCAL_ADMIN: 6, GLOBAL_ADMIN: 3, AD_HOC: 6 });
    const status =
      i < forcedStatuses.length
        ? forcedStatuses[(i + 0) % forcedStatuses.length]
        : rnd.weighted<ContractStatus>({
            ACTIVE: 60,
            CREATED_UNSIGNED: 8,
            CREATED_SIGNED: 8,
            BLOCKED: 6,
            EXPIRED: 12,
            UNSIGNED_EXPIRED: 6,
          });
    let endCustomerId: string;
    do endCustomerId = formatEndCustomerId(rnd.digits(11));
    while (usedIds.has(endCustomerId));
    usedIds.add(endCustomerId);
    const first = rnd.pick(firstNames);
    const last = rnd.pick(lastNames);
    const addr = address(rnd);
    const atLocation = userType === 'REGULAR' || userType === 'AD_HOC';
    const lots = lotsByLocation.get(loc.locationId) ?? [];
    const parkingLotNumbers =
      atLocation && lots.length > 0 ? [...new Set([rnd.pick(lots), ...(rnd.chance(0.1) ? [rnd.pick(lots)] : [])])] : [];
    const authType = atLocation
      ? userType === 'AD_HOC'
        ? 'APP'
        : rnd.pick(['APP', 'APP', 'APP', 'RFID', 'APP_AND_RFID'] as const)
      : 'RFID';
    const withBilling = userType === 'AD_HOC' || (userType !== 'GLOBAL_ADMIN' && rnd.chance(0.7));
    const paymentMethod: PaymentMethod = !withBilling
      ? 'NO_PAYMENT_METHOD'
      : userType === 'AD_HOC'
        ? 'STRIPE_CARD'
        : rnd.weighted<PaymentMethod>({ SEPA: 35, BANK_TRANSFER: 25, STRIPE_SEPA: 35, STRIPE_CARD: 5 });
    const startDaysAgo = rnd.int(status === 'CREATED_UNSIGNED' ? 1 : 30, 720);
    const start = new Date(now.getTime() - startDaysAgo * DAY);
    let end: Date | null = null;
    if (status === 'EXPIRED' || status === 'UNSIGNED_EXPIRED') {
      end = new Date(now.getTime() - rnd.int(1, Math.max(1, startDaysAgo - 1)) * DAY);
    } else if (rnd.chance(0.2)) end = new Date(now.getTime() + rnd.int(30, 700) * DAY);
    const contractKey = rnd.uuid();
    const tags: Card[] = [];
    if (authType !== 'APP') {
      const n = rnd.chance(0.2) ? 2 : 1;
      for (let t = 0; t < n; t++) {
        tags.push(cards.issue(contractKey, start));
      }
      contractTags.set(contractKey, tags);
    }
    contractRows.push({
      contractKey,
      contractId: rnd.uuid(),
      contractNumber: `V-${start.getUTCFullYear()}-${String(i + 1).padStart(6, '0')}`,
      endCustomerId,
      endCustomerIdManuallyCreated: false,
      cpoId: loc.cpoId,
      locationId: atLocation ? loc.locationId : null,
      contractStatus: status,
      userType,
      firstName: first,
      lastName: last,
      email: `${ascii(first)}.${ascii(last)}.${i + 1}@example.de`,
      careOf: rnd.chance(0.05) ? rnd.pick(lastNames) : null,
      street: addr.street,
      zipCode: addr.zipCode,
      city: addr.city,
      parkingLotNumbers,
      authType,
      rfidType: authType === 'APP' ? null : rnd.pick(['TAG', 'SN'] as const),
      billingType: withBilling ? 'WITH_BILLING' : 'NO_BILLING',
      billingCycle: withBilling ? (userType === 'AD_HOC' ? 'IMMEDIATE' : rnd.weighted({ MONTHLY: 85, QUARTERLY: 15 })) : null,
      startDate: isoDate(start),
      endDate: end ? isoDate(end) : null,
      fixTariff: withBilling ? rnd.pick(['9.90', '14.90', '19.90', '0.00']) : null,
      varTariff: withBilling ? rnd.pick(['0.3900', '0.4200', '0.4500', '0.4900']) : null,
      onboardingFee: withBilling ? rnd.pick(['0.00', '49.00', '99.00']) : '0.00',
      fixTariffPerChargingRequest: withBilling && rnd.chance(0.2) ? '0.50' : '0.00',
      paymentMethod,
      contractMandateReference: paymentMethod === 'SEPA' ? `MREF-${rnd.digits(10)}` : null,
      // Valid check digits from the same draw (the SEPA file refuses a bad IBAN); signed on the contract's first day.
      contractIban: paymentMethod === 'SEPA' ? germanIban(rnd.digits(20)) : null,
      contractMandateDate: paymentMethod === 'SEPA' ? isoDate(start) : null,
      stripeSepaPaymentDetailsAreConfigured: paymentMethod === 'STRIPE_SEPA' && rnd.chance(0.85),
      debitAccountNr: withBilling ? rnd.digits(5) : null,
      costCenterNumber: withBilling ? rnd.digits(4) : null,
      vatId: withBilling ? '19' : null,
      authCode: rnd.digits(6),
      createdAt: start,
      updatedAt: start,
    });
  }
  cards.stock(Math.ceil(spec.contracts / 50));
  return { contractRows, rfidRows: cards.rows, contractTags };
}

const firstOfMonthAfter = (d: Date, months: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));

/**
 * Each contract's tariff history (issue 24): its tariff from its start date, and for some billed
 * contracts a tariff change applied on the 1st of a month since (the contract's columns hold the
 * tariff of today, the history the one before), with the applied change it came from.
 */
export function drawTariffHistory(ctx: SeedContext, contractRows: (typeof contracts.$inferInsert)[]) {
  const { rnd, now } = ctx;
  const tariffRows: (typeof contractTariffs.$inferInsert)[] = [];
  const changeRows: (typeof pendingTariffChanges.$inferInsert)[] = [];
  for (const c of contractRows) {
    const current = {
      contractKey: c.contractKey,
      fixTariff: c.fixTariff ?? '0',
      varTariff: c.varTariff ?? '0',
      onboardingFee: c.onboardingFee ?? '0',
      fixTariffPerChargingRequest: c.fixTariffPerChargingRequest ?? '0',
    };
    const start = new Date(`${c.startDate}T00:00:00Z`);
    const change = firstOfMonthAfter(start, rnd.int(1, 12));
    const changes =
      c.billingType === 'WITH_BILLING' &&
      c.billingCycle !== 'IMMEDIATE' &&
      ['ACTIVE', 'BLOCKED'].includes(c.contractStatus!) &&
      change.getTime() < now.getTime() - 30 * DAY &&
      rnd.chance(0.25);
    if (!changes) {
      tariffRows.push({ ...current, validFrom: c.startDate! });
      continue;
    }
    tariffRows.push({
      ...current,
      validFrom: c.startDate!,
      fixTariff: rnd.pick(['7.90', '9.90', '12.90']),
      varTariff: rnd.pick(['0.3500', '0.3700', '0.3900']),
    });
    tariffRows.push({ ...current, validFrom: isoDate(change) });
    changeRows.push({
      ...current,
      newTariffDate: isoDate(change),
      newTariffCancellationDate: isoDate(firstOfMonthAfter(change, 12)),
      createdAt: new Date(change.getTime() - 30 * DAY),
      appliedAt: change,
    });
  }
  return { tariffRows, changeRows };
}

/**
 * One billed contract charges nothing (an operator's own car, say): zero tariffs, so its sessions
 * cost nothing (`costRequests`) and its bills come out at 0, which the run marks NOT_APPLICABLE, as
 * the bills list shows.
 */
export function makeOneContractFree(contractRows: (typeof contracts.$inferInsert)[]) {
  const free = contractRows.find((c) => c.billingType === 'WITH_BILLING' && c.billingCycle === 'MONTHLY' && c.contractStatus === 'ACTIVE');
  if (!free) return;
  Object.assign(free, { fixTariff: '0.00', varTariff: '0.0000', onboardingFee: '0.00', fixTariffPerChargingRequest: '0.00' });
}

const fleetCompanies = [
  'Nordlicht Logistik GmbH',
  'Kurierdienst Becker KG',
  'Elbe Pflegedienst gGmbH',
  'Handwerk Schmidt & Söhne GmbH',
  'Taxizentrale Süd eG',
  'Grünwerk Facility Services GmbH',
  'Carsharing Mitte GmbH',
  'Bäckerei Wagner GmbH & Co. KG',
];

/** A German VAT id with a valid check digit from the number `n` (the eight digits after DE). */
const germanVatId = (n: number) => {
  const eight = String(10_000_000 + (n % 90_000_000));
  return `DE${eight}${germanVatIdCheckDigit(eight)}`;
};

/** A Leitweg-ID (XRechnung's routing id of a German public buyer): coarse and fine address, ISO 7064 MOD 97-10 check digits. */
export const leitwegId = (coarse: string, fine: string) => {
  const digits = `${coarse}${fine}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  const check = 98n - ((BigInt(digits) * 100n) % 97n);
  return `${coarse}-${fine}-${String(check).padStart(2, '0')}`;
};

/**
 * Business customers and VAT rates (issue 35), chosen by position among the billed contracts and
 * drawn from no random stream, so the rest of the data set stays as it was: every 15th is a fleet
 * (a company with its VAT id; the first of them a public buyer with a Leitweg-ID as its buyer
 * reference), every 40th is billed at 7 % and every 60th at 0 %; the rest at the 19 % they carry.
 */
export function makeBusinessCustomersAndRates(contractRows: (typeof contracts.$inferInsert)[]) {
  let k = 0;
  let fleets = 0;
  for (const c of contractRows) {
    const billed =
      c.billingType === 'WITH_BILLING' &&
      (c.userType === 'REGULAR' || c.userType === 'LOCAL_ADMIN') &&
      ['ACTIVE', 'BLOCKED', 'EXPIRED'].includes(c.contractStatus!);
    if (!billed) continue;
    k++;
    // 0 % is the reverse charge, billed to a business customer with its VAT id only.
    if (k % 15 === 3 || k % 60 === 9) {
      if (fleets === 0) {
        Object.assign(c, {
          companyName: 'Stadt Musterhausen, Fuhrparkmanagement',
          customerVatId: germanVatId(k * 7919),
          buyerReference: leitwegId('05315', '0001234567'),
        });
      } else {
        Object.assign(c, { companyName: fleetCompanies[fleets % fleetCompanies.length], customerVatId: germanVatId(k * 7919) });
      }
      fleets++;
    }
    if (k % 40 === 5) c.vatId = '7';
    else if (k % 60 === 9) c.vatId = '0';
  }
}
