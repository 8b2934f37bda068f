import { composeIBAN } from 'ibantools';
import { checksumCreditorID } from 'sepa';
import { count, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../../../contract/common';
import { formatEndCustomerId } from '../../../contract/contracts';
import type { BillStatus, ChargingRequestStatus, ConnectorStatus, ContractStatus, PaymentMethod, UserType } from '../../../contract/enums';
import { hashPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import { transactionLock } from '../db/sql-helpers';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locationInfrastructure, locations, wallboxModels } from '../db/schema/locations';
import { erpValues, operators } from '../db/schema/operators';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { banks, cities, firstNames, lastNames, locationKinds, locationNames, positions, streets, wallboxModelRows } from './german-data';
import { createRandom, type Random } from './random';

/** A German IBAN with valid check digits (ISO 13616) from 20 random digits: 18 become the BBAN. */
const germanIban = (digits: string) => composeIBAN({ countryCode: 'DE', bban: digits.slice(2) })!;

export type SeedSize = 'small' | 'demo';

interface SizeSpec {
  /** Operators per non-platform customer; the customer type alternates Operator, Partner, Operator, Partner. */
  operatorsPerCustomer: number[];
  locations: number;
  connectors: number;
  contracts: number;
  chargingRequests: number;
  billMonths: number;
  requestMonths: number;
}

export const seedSizes: Record<SeedSize, SizeSpec> = {
  small: {
    operatorsPerCustomer: [1, 2, 1],
    locations: 6,
    connectors: 60,
    contracts: 150,
    chargingRequests: 3000,
    billMonths: 3,
    requestMonths: 4,
  },
  demo: {
    operatorsPerCustomer: [1, 3, 1, 1],
    locations: 40,
    connectors: 600,
    contracts: 2000,
    chargingRequests: 100_000,
    billMonths: 12,
    requestMonths: 13,
  },
};

/** The demo accounts (documented in the README and the report). */
export const demoAccounts = {
  admin: { email: 'admin@cockpit.example', password: 'Admin-Demo-2026' },
  operator: { email: 'operator@cockpit.example', password: 'Operator-Demo-2026' },
  partner: { email: 'partner@cockpit.example', password: 'Partner-Demo-2026' },
  /** Not verified yet: sign-in answers USER_NOT_VERIFIED. */
  unverified: { email: 'inaktiv@cockpit.example', password: 'Inaktiv-Demo-2026' },
  /** Password of every other seeded dashboard user. */
  others: { password: 'Nutzer-Demo-2026' },
} as const;

const PLATFORM_CUSTOMER_ID = 'K00001';

const companies = [
  { name: 'Stadtwerke Lindenau GmbH', ops: ['Stadtwerke Lindenau Ladeservice'] },
  {
    name: 'Ladenetz Partner Süd GmbH',
    ops: ['Wohnbau Sonnenhang eG', 'Parkraum Mitte GmbH', 'Klinikum Nord Service GmbH'],
  },
  { name: 'E-Mobil Hafenkante AG', ops: ['Hafenkante Laden & Parken'] },
  { name: 'Energiegenossenschaft Rosengarten eG', ops: ['Bürgerstrom Rosengarten'] },
];

const activeStatuses: ChargingRequestStatus[] = [
  'processing',
  'accepted',
  'connected',
  'charging',
  'paused',
  'termination_requested',
  'terminated_request',
];
const forcedHistoric: ChargingRequestStatus[] = [
  'finished',
  'denied',
  'denied_parking_timer',
  'terminated_not_started',
  'terminated_rejected',
  'broken',
];

const DAY = 86_400_000;
const round2 = (n: number) => Math.round(n * 100) / 100;
const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const ascii = (s: string) =>
  s
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Multi-row inserts sized below PostgreSQL's 65535 bind parameters. */
async function insertBatched<T extends PgTable>(db: Db, table: T, rows: T['$inferInsert'][]) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]).length;
  const batch = Math.max(1, Math.floor(60_000 / columns));
  for (let i = 0; i < rows.length; i += batch) {
    await db.insert(table).values(rows.slice(i, i + batch));
  }
}

function address(rnd: Random) {
  const [zipCode, city] = rnd.pick(cities);
  return { street: `${rnd.pick(streets)} ${rnd.int(1, 120)}`, zipCode, city };
}

/** `123-45678-901`: digits with dashes after the 3rd and 8th digit (the cockpit search inserts them). */

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(customers);
  return n === 0;
}

export interface SeedResult {
  size: SeedSize;
  ms: number;
  counts: Record<string, number>;
}

/**
 * Writes a deterministic data set: the same size, seed and `now` give the same ids and counts
 * (password hashes differ: salts are random). Everything happens in one transaction.
 */
export async function seedDatabase(db: Db, opts: { size: SeedSize; now: Date; seed?: number }): Promise<SeedResult>;
/** With `onlyIfEmpty`: undefined when the database had data by the time the seed held the lock. */
export async function seedDatabase(
  db: Db,
  opts: { size: SeedSize; now: Date; seed?: number; onlyIfEmpty: true },
): Promise<SeedResult | undefined>;
export async function seedDatabase(
  db: Db,
  opts: { size: SeedSize; now: Date; seed?: number; onlyIfEmpty?: boolean },
): Promise<SeedResult | undefined> {
  const started = performance.now();
  const spec = seedSizes[opts.size];
  const now = opts.now;
  const rnd = createRandom(opts.seed ?? 20260101);

  const [adminHash, operatorHash, partnerHash, unverifiedHash, othersHash] = await Promise.all([
    hashPassword(demoAccounts.admin.password),
    hashPassword(demoAccounts.operator.password),
    hashPassword(demoAccounts.partner.password),
    hashPassword(demoAccounts.unverified.password),
    hashPassword(demoAccounts.others.password),
  ]);

  // Customers and operators
  const customerRows: (typeof customers.$inferInsert)[] = [
    {
      customerId: PLATFORM_CUSTOMER_ID,
      companyName: 'Cockpit Plattform GmbH',
      customerType: 'Partner',
      street: 'Friedrich-Ebert-Straße',
      houseNumber: '12',
      zipCode: '10115',
      city: 'Berlin',
      contractKey: rnd.uuid(),
      contractStatus: 'ACTIVE',
      createdAt: new Date(now.getTime() - 900 * DAY),
    },
  ];
  const operatorRows: (typeof operators.$inferInsert)[] = [];
  spec.operatorsPerCustomer.forEach((nOps, ci) => {
    const company = companies[ci];
    const customerId = `K${String(10001 + ci)}`;
    const type = ci % 2 === 0 ? 'Operator' : 'Partner';
    const addr = address(rnd);
    customerRows.push({
      customerId,
      companyName: company.name,
      customerType: type,
      street: addr.street.replace(/ \d+$/, ''),
      houseNumber: addr.street.split(' ').pop(),
      zipCode: addr.zipCode,
      city: addr.city,
      contractKey: rnd.uuid(),
      contractStatus: ci === spec.operatorsPerCustomer.length - 1 ? 'CREATED_UNSIGNED' : 'ACTIVE',
      createManualEndCustomerId: ci === 1,
      createdAt: new Date(now.getTime() - (800 - ci * 30) * DAY),
    });
    for (let oi = 0; oi < nOps; oi++) {
      const cpoId = `CPO${ci + 1}00${oi + 1}`;
      const opAddr = address(rnd);
      const contact = `${rnd.pick(firstNames)} ${rnd.pick(lastNames)}`;
      const [bankName, bic] = rnd.pick(banks);
      const preference: ('SEPA' | 'BANK_TRANSFER' | 'STRIPE_SEPA')[] =
        oi % 3 === 0 ? ['SEPA', 'BANK_TRANSFER'] : oi % 3 === 1 ? ['BANK_TRANSFER'] : ['SEPA', 'STRIPE_SEPA'];
      const name = company.ops[oi];
      operatorRows.push({
        cpoId,
        cpoName: name,
        street: opAddr.street,
        careOf: oi === 1 ? `Hausverwaltung ${rnd.pick(lastNames)}` : null,
        zipCode: opAddr.zipCode,
        city: opAddr.city,
        customerId,
        createManualEndCustomerId: ci === 1,
        contactPersonName: contact,
        contactPersonPosition: rnd.pick(positions),
        contactPersonPhone: `0${rnd.digits(3)}${rnd.digits(7)}`,
        contactPersonEmail: `${ascii(contact).replace('-', '.')}@${ascii(name)}.example`,
        billingType: preference.includes('SEPA') ? 'SEPA' : 'BANK',
        isChargingHistoryIncluded: oi !== 2,
        paymentPreference: preference,
        iban: germanIban(rnd.digits(20)),
        bankName,
        bic,
        creditorId: preference.includes('SEPA') ? checksumCreditorID(`DE${rnd.digits(2)}ZZZ0000${rnd.digits(7)}`) : null,
        moneyCollectionGapInDays: rnd.pick([7, 14, 30]),
        headerLine1: name,
        headerLine2: opAddr.street,
        headerLine3: `${opAddr.zipCode} ${opAddr.city}`,
        headerLine4: oi === 0 ? `Tel. 0${rnd.digits(3)} ${rnd.digits(6)}` : null,
        footerLine1: `${name} · Amtsgericht ${opAddr.city} · HRB ${rnd.digits(5)}`,
        footerLine2: `${bankName} · IBAN ${germanIban(rnd.digits(20))} · BIC ${bic}`,
        footerLine3: `USt-IdNr. DE${rnd.digits(9)}`,
        footerLine4: null,
        createdAt: new Date(now.getTime() - (700 - ci * 30 - oi) * DAY),
      });
    }
  });

  // Dashboard users
  const userRows: (typeof dashboardUsers.$inferInsert)[] = [];
  const operatorCustomer = customerRows[1];
  const partnerCustomer = customerRows[2];
  userRows.push(
    {
      id: rnd.uuid(),
      email: demoAccounts.admin.email,
      passwordHash: adminHash,
      firstName: 'Ada',
      lastName: 'Administrator',
      role: 'Plattform-Administration',
      customerId: PLATFORM_CUSTOMER_ID,
      isAdmin: true,
      roles: [ADMIN_ROLE, OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: demoAccounts.operator.email,
      passwordHash: operatorHash,
      firstName: 'Olaf',
      lastName: 'Betreiber',
      role: 'Leiter Elektromobilität',
      customerId: operatorCustomer.customerId,
      operatorId: operatorRows.find((o) => o.customerId === operatorCustomer.customerId)!.cpoId,
      roles: [OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: demoAccounts.partner.email,
      passwordHash: partnerHash,
      firstName: 'Paula',
      lastName: 'Partner',
      role: 'Geschäftsführerin',
      customerId: partnerCustomer.customerId,
      roles: [OPERATOR_ROLE],
    },
    {
      id: rnd.uuid(),
      email: demoAccounts.unverified.email,
      passwordHash: unverifiedHash,
      firstName: 'Ines',
      lastName: 'Inaktiv',
      role: 'Sachbearbeitung',
      customerId: partnerCustomer.customerId,
      roles: [OPERATOR_ROLE],
      verified: false,
    },
  );
  for (const customer of customerRows.slice(1)) {
    for (let i = 0; i < 2; i++) {
      const first = rnd.pick(firstNames);
      const last = rnd.pick(lastNames);
      const ownOp = operatorRows.find((o) => o.customerId === customer.customerId)!;
      userRows.push({
        id: rnd.uuid(),
        email: `${ascii(first)}.${ascii(last)}${i}@${ascii(customer.companyName)}.example`,
        passwordHash: othersHash,
        firstName: first,
        lastName: last,
        role: rnd.pick(positions),
        customerId: customer.customerId,
        operatorId: customer.customerType === 'Operator' ? ownOp.cpoId : null,
        roles: [OPERATOR_ROLE],
        productPackage: 'Prosessional',
      });
    }
  }

  const erpRows: (typeof erpValues.$inferInsert)[] = operatorRows.flatMap((op, i) =>
    (['SEPA', 'BANK_TRANSFER'] as const).slice(0, i % 2 === 0 ? 2 : 1).map((paymentMethod) => ({
      cpoId: op.cpoId,
      clientNumber: rnd.digits(5),
      netLedgerAccountNr: `8${rnd.digits(3)}`,
      taxLedgerAccountNr: i % 3 === 2 ? null : `17${rnd.digits(2)}`,
      paymentMethod,
    })),
  );

  // Locations (round-robin over operators so every operator has some)
  const locationRows: (typeof locations.$inferInsert)[] = [];
  const infraRows: (typeof locationInfrastructure.$inferInsert)[] = [];
  const usedLocationNames = new Set<string>();
  for (let i = 0; i < spec.locations; i++) {
    const op = operatorRows[i % operatorRows.length];
    const addr = address(rnd);
    let name: string;
    do name = `${rnd.pick(locationKinds)} ${rnd.pick(locationNames)}`;
    while (usedLocationNames.has(`${op.cpoId}|${name}`));
    usedLocationNames.add(`${op.cpoId}|${name}`);
    const ems = rnd.chance(0.3);
    const locationId = `L${10001 + i}`;
    locationRows.push({
      locationId,
      locationName: name,
      careOf: rnd.chance(0.15) ? `${rnd.pick(lastNames)} Immobilien` : null,
      street: addr.street,
      zipCode: addr.zipCode,
      city: addr.city,
      cpoId: op.cpoId,
      isEmsConnected: ems,
      emsModel: ems ? rnd.pick(['Smart1 EMS', 'CFOS Charging Manager']) : null,
      emsId: ems ? `EMS-${rnd.hex(8).toUpperCase()}` : null,
      createdAt: new Date(now.getTime() - rnd.int(400, 700) * DAY),
    });
  }

  // Connectors: spread over locations, grouped in stations of 1 or 2 connectors.
  const perLocation = locationRows.map(
    (_, i) => Math.floor(spec.connectors / spec.locations) + (i < spec.connectors % spec.locations ? 1 : 0),
  );
  for (let k = 0; k < spec.locations; k++) {
    const a = rnd.int(0, spec.locations - 1);
    const b = rnd.int(0, spec.locations - 1);
    const move = rnd.int(0, Math.floor(perLocation[a] / 3));
    perLocation[a] -= move;
    perLocation[b] += move;
  }
  const connectorRows: (typeof connectors.$inferInsert)[] = [];
  const forcedConnectors: [ConnectorStatus, boolean /* parking lot */, boolean /* removed */][] = [
    ['IDLE', true, false],
    ['CONNECTED_UNAVAILABLE', true, false],
    ['CONNECTED_UNAVAILABLE', false, false],
    ['OCCUPIED_UNCHARGED', true, false],
    ['OCCUPIED_CHARGING', true, false],
    ['OFFLINE', true, false],
    ['INACTIVE', false, false],
    ['INACTIVE', false, true],
  ];
  let stationSeq = 1;
  const singleModels = wallboxModelRows.filter((m) => m.connectorsPerStation === 1);
  locationRows.forEach((loc, li) => {
    let remaining = perLocation[li];
    let lot = 1;
    const infra = new Map<string, number>();
    while (remaining > 0) {
      let model = rnd.pick(wallboxModelRows) as (typeof wallboxModelRows)[number];
      if (model.connectorsPerStation > remaining) model = rnd.pick(singleModels);
      infra.set(model.name, (infra.get(model.name) ?? 0) + 1);
      const cpId = `OLI${String(stationSeq++).padStart(6, '0')}`;
      const onlineSince = new Date(now.getTime() - rnd.int(30, 500) * DAY - rnd.int(0, DAY));
      for (let n = 1; n <= model.connectorsPerStation; n++) {
        const idx = connectorRows.length;
        let status: ConnectorStatus;
        let hasLot: boolean;
        let removed: boolean;
        if (idx < forcedConnectors.length) [status, hasLot, removed] = forcedConnectors[idx];
        else {
          removed = rnd.chance(0.03);
          status = removed
            ? rnd.pick(['INACTIVE', 'OFFLINE'] as const)
            : rnd.weighted<ConnectorStatus>({
                IDLE: 40,
                CONNECTED_UNAVAILABLE: 20,
                OCCUPIED_UNCHARGED: 8,
                OCCUPIED_CHARGING: 12,
                OFFLINE: 10,
                INACTIVE: 10,
              });
          hasLot = !removed && (status === 'CONNECTED_UNAVAILABLE' ? rnd.chance(0.5) : status === 'INACTIVE' ? rnd.chance(0.4) : true);
        }
        const offline = status === 'OFFLINE' || status === 'INACTIVE';
        connectorRows.push({
          connectorId: `${cpId}_${n}`,
          cpId,
          connectorNumber: n,
          cpoId: loc.cpoId,
          locationId: loc.locationId,
          parkingLot: hasLot ? (li % 3 === 0 ? `P${lot++}` : String(lot++)) : null,
          wallboxModel: model.name,
          status,
          removed,
          onlineSince: offline ? null : onlineSince,
          // INACTIVE: created, never connected (spec 2 §3), so never heard from; OFFLINE: silent for days.
          lastHeartbeat:
            status === 'INACTIVE'
              ? null
              : offline
                ? new Date(now.getTime() - rnd.int(2, 60) * DAY)
                : new Date(now.getTime() - rnd.int(5, 300) * 1000),
          createdAt: new Date(onlineSince.getTime() - DAY),
        });
        remaining--;
      }
    }
    for (const [model, n] of infra) {
      infraRows.push({
        locationId: loc.locationId,
        chargingStationModel: model,
        numOfChargingStations: Math.min(n, 100),
      });
    }
  });

  // End customers / contracts
  const lotsByLocation = new Map<string, string[]>();
  const usableByLocation = new Map<string, (typeof connectors.$inferInsert)[]>();
  for (const c of connectorRows) {
    if (c.parkingLot) lotsByLocation.set(c.locationId!, [...(lotsByLocation.get(c.locationId!) ?? []), c.parkingLot]);
    // Only a connector that has been connected charges: never an INACTIVE one.
    if (!c.removed && c.status !== 'INACTIVE') usableByLocation.set(c.locationId!, [...(usableByLocation.get(c.locationId!) ?? []), c]);
  }
  const locationsByOperator = new Map<string, string[]>();
  for (const l of locationRows) {
    locationsByOperator.set(l.cpoId, [...(locationsByOperator.get(l.cpoId) ?? []), l.locationId]);
  }
  const forcedStatuses: ContractStatus[] = ['ACTIVE', 'CREATED_UNSIGNED', 'CREATED_SIGNED', 'BLOCKED', 'EXPIRED', 'UNSIGNED_EXPIRED'];
  const forcedUserTypes: UserType[] = ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN', 'AD_HOC'];
  const contractRows: (typeof contracts.$inferInsert)[] = [];
  const rfidRows: (typeof rfidTags.$inferInsert)[] = [];
  const usedIds = new Set<string>();
  const usedTags = new Set<string>();
  const newTag = () => {
    let tag: string;
    do tag = rnd.hex(8).toUpperCase();
    while (usedTags.has(tag));
    usedTags.add(tag);
    return { rfidTag: tag, serialId: `SN${String(rfidRows.length + 100001).padStart(10, '0')}` };
  };
  const contractTags = new Map<string, { rfidTag: string; serialId: string }[]>();
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
    const tags: { rfidTag: string; serialId: string }[] = [];
    if (authType !== 'APP') {
      const n = rnd.chance(0.2) ? 2 : 1;
      for (let t = 0; t < n; t++) {
        const tag = newTag();
        tags.push(tag);
        rfidRows.push({ ...tag, contractKey, createdAt: start });
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
      contractIban: paymentMethod === 'SEPA' ? `DE${rnd.digits(20)}` : null,
      stripeSepaPaymentDetailsAreConfigured: paymentMethod === 'STRIPE_SEPA' && rnd.chance(0.85),
      debitAccountNr: withBilling ? rnd.digits(5) : null,
      costCenterNumber: withBilling ? rnd.digits(4) : null,
      vatId: withBilling ? '19' : null,
      authCode: rnd.digits(6),
      createdAt: start,
      updatedAt: start,
    });
  }
  for (let i = 0; i < Math.ceil(spec.contracts / 50); i++) rfidRows.push({ ...newTag(), contractKey: null });

  // Charging requests: a few live sessions, the rest history over `requestMonths`.
  const chargers = contractRows.filter(
    (c) => c.contractStatus === 'ACTIVE' || c.contractStatus === 'BLOCKED' || c.contractStatus === 'EXPIRED',
  );
  const liveCount = Math.max(activeStatuses.length, Math.ceil(spec.connectors / 10));
  const spanMs = spec.requestMonths * 30.4 * DAY;
  const monthly = new Map<string, { energy: number; cost: number }>();
  const requestDrafts: (Omit<typeof chargingRequests.$inferInsert, 'transactionId'> & { startDate: Date })[] = [];
  for (let i = 0; i < spec.chargingRequests; i++) {
    const contract = chargers[rnd.int(0, chargers.length - 1)];
    const locationId = contract.locationId ?? rnd.pick(locationsByOperator.get(contract.cpoId)!);
    const usable = usableByLocation.get(locationId) ?? connectorRows.filter((c) => c.locationId === locationId);
    const live = i < liveCount;
    const status: ChargingRequestStatus = live
      ? activeStatuses[i % activeStatuses.length]
      : i - liveCount < forcedHistoric.length
        ? forcedHistoric[i - liveCount]
        : rnd.weighted<ChargingRequestStatus>({
            finished: 86,
            denied: 3,
            denied_parking_timer: 1.5,
            terminated_not_started: 3,
            terminated_rejected: 1,
            broken: 1.5,
          });
    const start = live
      ? new Date(now.getTime() - rnd.int(2, 180) * 60_000)
      : new Date(now.getTime() - 3 * 3600_000 - Math.floor(rnd.next() * spanMs));
    // Sessions, heartbeats and statuses agree: a session runs on a connector that existed then and
    // was still heard from after it (a live one on a connector that is online now).
    const fits = usable.filter(
      (c) =>
        c.createdAt! <= start &&
        (live ? c.onlineSince !== null : c.lastHeartbeat !== null && c.lastHeartbeat!.getTime() > start.getTime() + 11 * 3600_000),
    );
    const connector = rnd.pick(fits.length > 0 ? fits : usable);
    let energy = 0;
    let end: Date | null = null;
    if (status === 'finished' || status === 'broken') {
      energy = status === 'finished' ? 3 + rnd.next() * 57 : rnd.next() * 8;
      end = new Date(start.getTime() + rnd.int(20, 600) * 60_000);
    } else if (!live) end = new Date(start.getTime() + rnd.int(1, 5) * 60_000);
    else if (status !== 'processing' && status !== 'accepted' && status !== 'connected') {
      energy = rnd.next() * 20;
    }
    energy = Math.round(energy * 1000) / 1000;
    const varTariff = Number(contract.varTariff ?? 0);
    const cost = energy > 0 ? round2(energy * varTariff + Number(contract.fixTariffPerChargingRequest ?? 0)) : 0;
    const tags = contractTags.get(contract.contractKey);
    const useRfid = contract.authType === 'RFID' || (contract.authType === 'APP_AND_RFID' && rnd.chance(0.5));
    const tag = useRfid && tags ? rnd.pick(tags) : undefined;
    if (end && energy > 0 && contract.billingType === 'WITH_BILLING') {
      const key = `${contract.contractKey}|${start.getUTCFullYear()}-${start.getUTCMonth()}`;
      const agg = monthly.get(key) ?? { energy: 0, cost: 0 };
      agg.energy += energy;
      agg.cost += cost;
      monthly.set(key, agg);
    }
    requestDrafts.push({
      contractKey: contract.contractKey,
      endCustomerId: contract.endCustomerId,
      customerFullName: `${contract.firstName} ${contract.lastName}`,
      cpoId: contract.cpoId,
      locationId,
      connectorId: connector.connectorId,
      parkingLot: connector.parkingLot ?? null,
      authType: tag ? 'RFID' : 'APP',
      rfidTag: tag?.rfidTag ?? null,
      rfidSerialId: tag?.serialId ?? null,
      chargingType: contract.userType === 'AD_HOC' ? 'AD_HOC' : 'NORMAL',
      status,
      startDate: start,
      endDate: end,
      lastUpdateTimestamp: end ?? new Date(Math.min(now.getTime(), start.getTime() + rnd.int(1, 20) * 60_000)),
      energyKwh: energy.toFixed(3),
      cost: cost.toFixed(2),
    });
  }
  // Transaction ids grow with time, like the ones a backend hands out.
  requestDrafts.sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  const requestRows = requestDrafts.map((r, i) => ({ ...r, transactionId: `TX${String(4_000_000_000 + i)}` }));

  // Monthly bills for billed contracts.
  const billRows: (typeof bills.$inferInsert)[] = [];
  const forcedBills: BillStatus[] = ['PAID', 'UNPAID', 'GENERATED', 'SENT', 'NOT_APPLICABLE', 'DISPUTE_CREATED', 'DISPUTED'];
  for (let m = spec.billMonths; m >= 1; m--) {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1));
    const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m + 1, 0));
    const generated = new Date(Date.UTC(monthEnd.getUTCFullYear(), monthEnd.getUTCMonth() + 1, 3, 6));
    for (const c of contractRows) {
      if (c.billingType !== 'WITH_BILLING' || c.userType === 'GLOBAL_ADMIN') continue;
      if (!['ACTIVE', 'BLOCKED', 'EXPIRED'].includes(c.contractStatus)) continue;
      if (c.startDate! > isoDate(monthEnd) || (c.endDate && c.endDate < isoDate(monthStart))) continue;
      const agg = monthly.get(`${c.contractKey}|${monthStart.getUTCFullYear()}-${monthStart.getUTCMonth()}`);
      const fix = round2(Number(c.fixTariff ?? 0) * 1.19);
      const varCost = round2(agg?.cost ?? 0);
      const seq = billRows.length;
      let status: BillStatus;
      if (seq < forcedBills.length) status = forcedBills[seq];
      else if (fix + varCost === 0) status = 'NOT_APPLICABLE';
      else if (m === 1) status = rnd.weighted<BillStatus>({ GENERATED: 30, SENT: 30, UNPAID: 25, PAID: 15 });
      else status = rnd.weighted<BillStatus>({ PAID: 85, UNPAID: 8, DISPUTE_CREATED: 3, DISPUTED: 3, SENT: 1 });
      const stripe = c.paymentMethod === 'STRIPE_SEPA';
      const collected = status === 'PAID' && (stripe || c.paymentMethod === 'SEPA');
      billRows.push({
        billId: rnd.uuid(),
        billNumber: `RE-${monthStart.getUTCFullYear()}${String(monthStart.getUTCMonth() + 1).padStart(2, '0')}-${String(seq + 1).padStart(6, '0')}`,
        contractKey: c.contractKey,
        cpoId: c.cpoId,
        locationId: c.locationId ?? null,
        endCustomerId: c.endCustomerId,
        endCustomerFirstName: c.firstName,
        endCustomerLastName: c.lastName,
        userType: c.userType,
        startDate: isoDate(monthStart),
        endDate: isoDate(monthEnd),
        energyLoaded: (agg?.energy ?? 0).toFixed(3),
        taxedFixCosts: fix.toFixed(2),
        taxedVarCosts: varCost.toFixed(2),
        totalTaxedCosts: round2(fix + varCost).toFixed(2),
        billingStatus: status,
        billGenerationDate: generated,
        billCollectionDate: collected ? new Date(generated.getTime() + 14 * DAY) : null,
        billDownloadDate: rnd.chance(0.3) ? new Date(generated.getTime() + rnd.int(1, 20) * DAY) : null,
        paymentMethod: c.paymentMethod,
        stripeSepaPaymentIntentId: stripe && status !== 'GENERATED' ? `pi_${rnd.hex(24)}` : null,
        stripeSepaBillPaymentStatus: stripe
          ? status === 'PAID'
            ? 'succeeded'
            : status === 'SENT'
              ? 'processing'
              : status === 'GENERATED'
                ? null
                : 'requires_payment_method'
          : null,
        monthNumber: monthStart.getUTCMonth() + 1,
        yearNumber: monthStart.getUTCFullYear(),
      });
    }
  }

  const seeded = await db.transaction(async (tx) => {
    // Two instances starting together on one PostgreSQL: the second waits here and then finds data.
    await transactionLock(tx, 'seed');
    if (opts.onlyIfEmpty && !(await isDatabaseEmpty(tx))) return false;
    await insertBatched(tx, customers, customerRows);
    await insertBatched(tx, operators, operatorRows);
    await insertBatched(tx, dashboardUsers, userRows);
    await insertBatched(tx, erpValues, erpRows);
    await insertBatched(
      tx,
      wallboxModels,
      wallboxModelRows.map((m) => ({ ...m })),
    );
    await insertBatched(tx, locations, locationRows);
    await insertBatched(tx, locationInfrastructure, infraRows);
    await insertBatched(tx, connectors, connectorRows);
    await insertBatched(tx, contracts, contractRows);
    await insertBatched(tx, rfidTags, rfidRows);
    await insertBatched(tx, chargingRequests, requestRows);
    await insertBatched(tx, bills, billRows);
    return true;
  });
  if (!seeded) return undefined;
  // Fresh statistics, so the first list queries use the indexes; the vacuum sets the visibility map
  // so counts can use index-only scans (PGlite has no autovacuum to do it later).
  await db.execute(sql`vacuum analyze`);

  return {
    size: opts.size,
    ms: Math.round(performance.now() - started),
    counts: {
      customers: customerRows.length,
      operators: operatorRows.length,
      dashboardUsers: userRows.length,
      locations: locationRows.length,
      connectors: connectorRows.length,
      contracts: contractRows.length,
      rfidTags: rfidRows.length,
      chargingRequests: requestRows.length,
      bills: billRows.length,
    },
  };
}

/** Seeds only an empty database, so a restart keeps whatever the users changed. */
export async function seedIfEmpty(db: Db, size: SeedSize | 'none', now = new Date()): Promise<SeedResult | undefined> {
  if (size === 'none' || !(await isDatabaseEmpty(db))) return undefined;
  return seedDatabase(db, { size, now, onlyIfEmpty: true });
}
