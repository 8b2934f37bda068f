import { and, asc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import { defaultRuntimeConfig } from '../../../contract/config';
import { routes, type App } from '../app';
import type { Db } from '../db/client';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locations, wallboxModels } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { connectors } from '../db/schema/stations';
import type { Route } from '../http/route-table';
import { demoAccounts } from '../seed/seed';
import { csvFile } from './station-import-files';

/**
 * What the access matrix (access-matrix.test.ts) and the fuzz test (fuzz.test.ts) know about the
 * routes beyond their tables: how to build a valid request for each, which kind of data each path
 * parameter and id-like field names, and a cheap fingerprint of the database. The routes themselves
 * always come from the app (`routes` and Hono's `app.routes`), never from a list kept here: a new
 * route whose parameter or body is unknown here makes the matrix fail and say what to add.
 */

// ---------------------------------------------------------------------------------------------
// The routes the app mounts
// ---------------------------------------------------------------------------------------------

export interface MountedRoute {
  route: Route;
  /** `METHOD /base/path` with `:params`. */
  key: string;
  /** `/base/path` with `:params`. */
  pattern: string;
}

export const patternOf = (r: Route) => `${r.service === 'root' ? '' : defaultRuntimeConfig.services[r.service]}${r.path}`;

/**
 * Every route Hono has mounted, joined to its declaration. `undeclared` lists mounted routes no
 * table declares (the matrix fails on them).
 */
export function mountedRoutes(app: App): { mounted: MountedRoute[]; undeclared: string[] } {
  const keys = new Set(
    app.routes
      // Middleware for every path (app.use) and the PWA's catch-all are not routes of an area.
      .filter((r) => r.method !== 'ALL' && r.path !== '/*' && r.path !== '*')
      .map((r) => `${r.method} ${r.path}`),
  );
  const byKey = new Map(routes.map((r) => [`${r.method} ${patternOf(r)}`, r]));
  const mounted: MountedRoute[] = [];
  const undeclared: string[] = [];
  for (const key of [...keys].sort()) {
    const route = byKey.get(key);
    if (route) mounted.push({ route, key, pattern: patternOf(route) });
    else undeclared.push(key);
  }
  return { mounted, undeclared };
}

/** `:name` parameters of a pattern, each with the segment before it (`locations/:id`). */
export const pathParams = (pattern: string) =>
  [...pattern.matchAll(/([^/]*)\/:(\w+)/g)].map((m) => ({ name: m[2], key: `${m[1]}/:${m[2]}` }));

export const fillPath = (pattern: string, values: Record<string, string>) =>
  pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));

// ---------------------------------------------------------------------------------------------
// The data a request names: one bag per caller (own), per foreign customer, and one that exists nowhere
// ---------------------------------------------------------------------------------------------

/** The kinds of data a request can name. Each tenant kind answers its not-found code when outside the caller's operators. */
export const entityCodes = {
  operator: 'OPERATOR_NOT_FOUND',
  location: 'LOCATION_NOT_FOUND',
  connector: 'CONNECTOR_NOT_FOUND',
  contract: 'CONTRACT_NOT_FOUND',
  customer: 'CUSTOMER_NOT_FOUND',
  bill: 'BILLING_NOT_FOUND',
} as const;
export type TenantEntity = keyof typeof entityCodes;
/** `user`: a dashboard user, which routes only accept as the caller itself (403 for anyone else). */
export type Entity = TenantEntity | 'user';

export interface Bag {
  operator: { cpoId: string };
  location: { locationId: string };
  /** A connector that may be written (IDLE, at a location), and a parking lot free at its location. */
  connector: { connectorId: string; cpId: string; locationId: string; freeLot: string };
  contract: { contractKey: string; endCustomerId: string };
  /**
   * The operator's customer, and whether the bag's user may create an operator for it (spec 1 §6:
   * admins and Partner accounts for their own customer; Operator-type accounts never: 403).
   */
  customer: { customerId: string; userCreatesOperators: boolean; contractKey: string };
  request: { transactionId: string };
  /** A bill of the operator with a PDF (GENERATED where there is one): its number and id. */
  bill: { billNumber: string; billId: string };
  user: { id: string; email: string; password: string };
}

export const nonexistentBag: Bag = {
  operator: { cpoId: 'CPO9999' },
  location: { locationId: 'L99999' },
  connector: { connectorId: 'OLI999999_1', cpId: 'OLI999999', locationId: 'L99999', freeLot: 'N1' },
  contract: { contractKey: '00000000-0000-4000-8000-000000000000', endCustomerId: '999-99999-999' },
  customer: { customerId: 'K99999', userCreatesOperators: false, contractKey: '00000000-0000-4000-8000-00000000c0de' },
  request: { transactionId: 'NOPE000000000000000000' },
  bill: { billNumber: 'RE-MATRIX-NONE', billId: '00000000-0000-4000-8000-0000000b111d' },
  user: { id: '00000000-0000-4000-8000-000000000001', email: 'nobody@matrix.example', password: 'Nobody-Matrix-2026' },
};

/**
 * A bag of data of one operator: its first location with a writable connector, that connector, a
 * contract and a charging request of the operator, and `user` (a dashboard user of the operator's
 * customer, or the caller).
 */
export async function bagOf(db: Db, cpoId: string, user: Bag['user'], lot: string): Promise<Bag> {
  const [connector] = await db
    .select({ connectorId: connectors.connectorId, cpId: connectors.cpId, locationId: connectors.locationId })
    .from(connectors)
    .where(and(eq(connectors.cpoId, cpoId), eq(connectors.removed, false), eq(connectors.status, 'IDLE'), isNotNull(connectors.locationId)))
    .orderBy(asc(connectors.connectorId))
    .limit(1);
  if (!connector) throw new Error(`The seed has no IDLE connector at a location of ${cpoId}`);
  const [contract] = await db
    .select({ contractKey: contracts.contractKey, endCustomerId: contracts.endCustomerId })
    .from(contracts)
    .where(eq(contracts.cpoId, cpoId))
    // One with bills: it cannot be deleted (bills are kept), so the admin's delete leaves the bag whole.
    .orderBy(sql`not exists (select 1 from bills where bills.contract_key = ${contracts.contractKey})`, asc(contracts.contractKey))
    .limit(1);
  const [request] = await db
    .select({ transactionId: chargingRequests.transactionId })
    .from(chargingRequests)
    .where(eq(chargingRequests.cpoId, cpoId))
    .orderBy(asc(chargingRequests.transactionId))
    .limit(1);
  if (!contract || !request) throw new Error(`The seed has no contract or charging request of ${cpoId}`);
  const [bill] = await db
    .select({ billNumber: bills.billNumber, billId: bills.billId })
    .from(bills)
    .where(and(eq(bills.cpoId, cpoId), isNotNull(bills.billingStatus), ne(bills.billingStatus, 'NOT_APPLICABLE')))
    .orderBy(sql`${bills.billingStatus} <> 'GENERATED'`, asc(bills.billNumber))
    .limit(1);
  if (!bill) throw new Error(`The seed has no bill with a PDF of ${cpoId}`);
  const [customer] = await db
    .select({ customerId: operators.customerId, contractKey: customers.contractKey })
    .from(operators)
    .innerJoin(customers, eq(customers.customerId, operators.customerId))
    .where(eq(operators.cpoId, cpoId));
  const [caller] = await db
    .select({ isAdmin: dashboardUsers.isAdmin, customerId: dashboardUsers.customerId, customerType: customers.customerType })
    .from(dashboardUsers)
    .innerJoin(customers, eq(customers.customerId, dashboardUsers.customerId))
    .where(eq(dashboardUsers.id, user.id));
  const userCreatesOperators =
    !!caller && (caller.isAdmin || (caller.customerType === 'Partner' && caller.customerId === customer.customerId));
  return {
    operator: { cpoId },
    location: { locationId: connector.locationId! },
    connector: { connectorId: connector.connectorId, cpId: connector.cpId, locationId: connector.locationId!, freeLot: lot },
    contract,
    customer: { customerId: customer.customerId, userCreatesOperators, contractKey: customer.contractKey ?? '' },
    request,
    bill,
    user,
  };
}

/** A verified dashboard user of the customer (not one of the demo accounts), as a foreign `user`. */
export async function someUserOf(db: Db, customerId: string): Promise<Bag['user']> {
  const demo: string[] = [demoAccounts.admin.email, demoAccounts.operator.email, demoAccounts.partner.email];
  const rows = await db
    .select({ id: dashboardUsers.id, email: dashboardUsers.email })
    .from(dashboardUsers)
    .where(and(eq(dashboardUsers.customerId, customerId), eq(dashboardUsers.verified, true)))
    .orderBy(asc(dashboardUsers.email));
  const row = rows.find((r) => !demo.includes(r.email));
  if (!row) throw new Error(`The seed has no other user of customer ${customerId}`);
  return { ...row, password: demoAccounts.others.password };
}

/** Names only a customer's own data carries (company, operators, locations): none may reach another customer. */
export async function markersOf(db: Db, customerId: string): Promise<string[]> {
  const [customer] = await db.select({ name: customers.companyName }).from(customers).where(eq(customers.customerId, customerId));
  const ops = await db.select({ name: operators.cpoName }).from(operators).where(eq(operators.customerId, customerId));
  const locs = await db
    .select({ name: locations.locationName, street: locations.street })
    .from(locations)
    .innerJoin(operators, eq(operators.cpoId, locations.cpoId))
    .where(eq(operators.customerId, customerId));
  return [customer?.name, ...ops.map((o) => o.name), ...locs.flatMap((l) => [l.name, l.street])].filter((s): s is string => !!s);
}

export async function firstWallboxModel(db: Db): Promise<string> {
  const [m] = await db.select({ name: wallboxModels.name }).from(wallboxModels).orderBy(asc(wallboxModels.name)).limit(1);
  return m.name;
}

/**
 * Wraps a bag so that reading it records which kinds of data a request was built from: those are
 * the ones the matrix then swaps, one at a time, for another customer's and for nonexistent ones.
 */
export function recordingBag(bag: Bag, used: Set<keyof Bag>): Bag {
  return new Proxy(bag, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in target) used.add(prop as keyof Bag);
      return Reflect.get(target, prop, receiver);
    },
  });
}

// ---------------------------------------------------------------------------------------------
// What each path parameter and id-like field names
// ---------------------------------------------------------------------------------------------

export type ParamKind =
  | { entity: Entity; value: (b: Bag) => string }
  /** Not scoped to a customer by design (e.g. anyone may ask for a password reset link); the value to use. */
  | { unscoped: string; why: string };

/**
 * Path parameters by `segment/:name`. A route with a parameter missing here fails the matrix: add
 * what it names, so that the matrix calls it with another customer's data.
 */
export const pathParamKinds: Record<string, ParamKind> = {
  'cpos/:id': { entity: 'operator', value: (b) => b.operator.cpoId },
  'locations/:id': { entity: 'location', value: (b) => b.location.locationId },
  'location/:id': { entity: 'location', value: (b) => b.location.locationId },
  'connectors/:id': { entity: 'connector', value: (b) => b.connector.connectorId },
  // Customer management (admins only): a customer by its number, its invitation by its contract key.
  'get-customer/:id': { entity: 'customer', value: (b) => b.customer.customerId },
  'get-dashboard-user/:id': { entity: 'customer', value: (b) => b.customer.customerId },
  'customer-id/:id': {
    unscoped: 'MATRIXFREE2',
    why: 'customer numbers are unique across the platform and only admins may ask whether one is free (create-customer wizard)',
  },
  // An end customer's contract here (a customer's contract key, admins only, is in customers.test.ts).
  'send-invitation-email/:contractKey': { entity: 'contract', value: (b) => b.contract.contractKey },
  // End customers and their contracts, by contract key.
  'id/:id': { entity: 'contract', value: (b) => b.contract.contractKey },
  'pdf/:id': { entity: 'contract', value: (b) => b.contract.contractKey },
  'delete-contract/:id': { entity: 'contract', value: (b) => b.contract.contractKey },
  'reconfigure-stripe-sepa/:id': { entity: 'contract', value: (b) => b.contract.contractKey },
  'on-update/:id2': { entity: 'contract', value: (b) => b.contract.contractKey },
  'end-customer-id/:id': {
    unscoped: 'MATRIXFREE1',
    why: 'end customer ids are unique across all operators, so whether one is free is a global answer (spec 2 §4 chip)',
  },
  'logout/:sub': { entity: 'user', value: (b) => b.user.id },
  // A bill's PDF link names the bill by its number (and its id as verificationId).
  'pdf/:billNumber': { entity: 'bill', value: (b) => b.bill.billNumber },
  'forget-password/:email': { unscoped: 'nobody@matrix.example', why: 'anyone may ask for a reset link of any address' },
};

/**
 * Id-like query and body fields: `tenant` fields name data of a kind (outside the caller's
 * operators → 404 with that kind's code); `search` fields are filters whose value only narrows the
 * caller's own rows (another customer's value must answer exactly like a value that exists nowhere);
 * `self` fields name the caller (anyone else → 403/404). Every id-like field of a sample must be here.
 */
export const idFields: Record<string, { tenant: TenantEntity } | { search: (b: Bag) => string } | { self: true } | { free: string }> = {
  cpoId: { tenant: 'operator' },
  locationId: { tenant: 'location' },
  locationIds: { tenant: 'location' },
  locations: { tenant: 'location' },
  connectorId: { tenant: 'connector' },
  contractKey: { tenant: 'contract' },
  customerId: { tenant: 'customer' },
  cpId: { search: (b) => b.connector.cpId },
  transactionId: { search: (b) => b.request.transactionId },
  endCustomerId: { search: (b) => b.contract.endCustomerId },
  username: { self: true },
  oldEmail: { self: true },
  newEmail: { free: 'the address to change to' },
  senderEmailAddress: { free: 'the reply-to of a support mail' },
  createManualEndCustomerId: { free: 'a flag: whether end-customer ids are typed by hand' },
  contactPersonEmail: { free: "the address of an operator's contact person" },
  sendEmail: { free: 'a flag the dashboard always sends as false (the server sends the invitation itself)' },
  creditorId: { free: 'a SEPA creditor identifier (a bank reference, not a record)' },
  vatId: { free: "the operator's VAT id (USt-IdNr., a tax reference, not a record)" },
  verificationId: { free: "the contract or bill id a PDF link carries, checked together with the contract's key or the bill's number" },
  // Checked with the bill's number it comes with: the matrix swaps the bag's whole bill (404 BILLING_NOT_FOUND), so
  // every GET need not be called with it again (the SSE route's case is near its time limit).
  billId: { free: "a bill's id, always sent with the bill's number and swapped together with it through the bag" },
};

/** Field names the matrix treats as ids: they must appear in `idFields`. */
export const looksLikeId = (name: string) => /(^id$|Id$|Ids$|Key$|^sub$|Email$|^username$|^locations$)/.test(name);

/** The value of a tenant field for a bag. */
export function tenantValue(entity: TenantEntity, b: Bag): string {
  switch (entity) {
    case 'operator':
      return b.operator.cpoId;
    case 'location':
      return b.location.locationId;
    case 'connector':
      return b.connector.connectorId;
    case 'contract':
      return b.contract.contractKey;
    case 'customer':
      return b.customer.customerId;
    case 'bill':
      return b.bill.billId;
  }
}

// ---------------------------------------------------------------------------------------------
// Valid requests (from contract/*.ts and the area tests)
// ---------------------------------------------------------------------------------------------

export interface Fixtures {
  wallboxModel: string;
  /** An address another account already uses (an e-mail change to it is refused, nothing changes). */
  takenEmail: string;
  /** A verified account that is not one of the callers (signs in, nothing else changes). */
  otherAccount: { email: string; password: string };
}

export interface Sample {
  query?: Record<string, string>;
  body?: unknown;
  /** A multipart body (an upload route's file) instead of JSON. */
  form?: () => FormData;
  /** The statuses a caller allowed on the route gets with its own data; 2xx when absent. */
  expect?: number[];
}

/**
 * A request that passes validation, by `METHOD /base/path`. Required for every write; a read that
 * answers 400 without one needs one too. Built from the caller's own data; the matrix swaps in
 * other customers' data.
 */
/** Makes each sample's new e-mail, serial and tag unique, so a repeated call is not refused as a duplicate. */
let matrixSerial = 0;

export const samples: Record<string, (b: Bag, f: Fixtures) => Sample> = {
  'POST /user-service/login': (_, f) => ({
    body: { username: f.otherAccount.email, password: f.otherAccount.password, origin: 'dashboard' },
  }),
  'POST /user-service/refresh-token': () => ({
    body: { currentAccessToken: 'not.a.token', currentRefreshToken: 'not-a-refresh-token', origin: 'dashboard' },
    expect: [401],
  }),
  'GET /user-service/forget-password/:email': () => ({ expect: [404, 429] }),
  'POST /user-service/reset-password': () => ({
    body: { token: 'no-such-reset-token', newPassword: 'Matrix-Password-2026' },
    expect: [400, 401, 404, 429],
  }),
  // The caller's own password again: the route does all its work, the account stays usable.
  'PUT /user-service/change-password': (b) => ({
    body: { username: b.user.email, currentPassword: b.user.password, newPassword: b.user.password, origin: 'dashboard' },
  }),
  'POST /user-service/cpos/dashboard-update-user-email': (b, f) => ({
    body: { oldEmail: b.user.email, newEmail: f.takenEmail, origin: 'dashboard' },
    expect: [409],
  }),
  'POST /bff/mail/send': () => ({
    body: { subject: 'Matrix', body: 'Access matrix test', senderEmailAddress: 'matrix@cockpit.example', senderFullName: 'Matrix Test' },
    expect: [200, 429],
  }),
  'PUT /bff/charging-requests/clean': () => ({ body: { minutesThreshold: 10_000_000 } }),
  'GET /bff/kpi/get-graph': (b) => ({
    query: { graphType: 'TOTAL_ENERGY', startDate: '2026-03-01', endDate: '2026-03-15', unit: 'DAYS', locations: b.location.locationId },
  }),
  'GET /bff/locations/get-by-cpo-for-dropdown': (b) => ({ query: { cpoId: b.operator.cpoId } }),
  'GET /bff/locations/get-by-cpo': (b) => ({ query: { cpoId: b.operator.cpoId, page: '0', size: '10' } }),
  'GET /bff/locations/parking-info': (b) => ({ query: { locationId: b.location.locationId } }),
  // The CSV: the XLSX carries the time it was made, so two answers never compare equal.
  'GET /bff/connectors/upload/template': () => ({ query: { format: 'csv' } }),
  // A dry run: valid, and it writes nothing, so the matrix may send it again and again.
  'POST /bff/connectors/upload': (b) => ({
    query: { csvSeparator: ';', dryRun: 'true' },
    form: () => {
      const form = new FormData();
      const file = csvFile([{ locationId: b.location.locationId, wallboxModel: 'ABL eMH1', connectorCount: 1, parkingLot1: 'MX1' }]);
      form.set('file', new Blob([new Uint8Array(file)]), 'stationen.csv');
      return form;
    },
  }),
  'GET /bff/connectors/get-by-cpo': (b) => ({ query: { locationId: b.location.locationId, locationIds: b.location.locationId } }),
  'GET /booking-service/bookings/get-charging-history': (b) => ({ query: { contractKey: b.contract.contractKey, page: '0', size: '10' } }),
  'POST /bff/locations/location': (b) => ({
    body: {
      locationName: 'Matrix Standort',
      locationAddress: { street: 'Teststraße 1', zipCode: '10115', city: 'Berlin' },
      cpoId: b.operator.cpoId,
      wallBoxesData: [],
    },
  }),
  'PUT /bff/locations/update-location': (b) => ({
    body: {
      locationId: b.location.locationId,
      locationName: 'Matrix Standort geändert',
      locationAddress: { street: 'Teststraße 2', zipCode: '10115', city: 'Berlin' },
    },
  }),
  'POST /bff/connectors/create-cp': (b, f) => ({
    body: { locationId: b.location.locationId, numOfChargingStations: 1, chargingStationModel: f.wallboxModel },
  }),
  'PUT /bff/connectors/update-parking-lots': (b) => ({
    body: [
      {
        connectorId: b.connector.connectorId,
        cpId: b.connector.cpId,
        locationId: b.connector.locationId,
        parkingLotNumber: b.connector.freeLot,
      },
    ],
  }),
  'POST /bff/cpos/create-operator': (b) => ({
    body: {
      cpoName: 'Matrix Betreiber GmbH',
      cpoAddress: { street: 'Teststraße 3', zipCode: '10115', city: 'Berlin' },
      customerId: b.customer.customerId,
      createManualEndCustomerId: false,
      contactPersonDetails: {
        contactPersonName: 'Mia Matrix',
        contactPersonPosition: 'Buchhaltung',
        contactPersonPhone: '030123456',
        contactPersonEmail: 'mia.matrix@cockpit.example',
      },
      withBillingInfo: true,
      cpoPaymentDetails: {
        cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'],
        cpoIban: 'DE89370400440532013000',
        cpoBankName: 'Matrixbank',
        cpoBic: 'COBADEFFXXX',
        creditorId: 'DE98ZZZ09999999999',
        moneyCollectionGapInDays: 14,
      },
      billingTemplateHeader: { lineOne: 'Matrix Betreiber GmbH' },
      vatId: 'DE123456789',
    },
    // Operator-type accounts may not create operators (spec 1 §6).
    expect: b.customer.userCreatesOperators ? undefined : [403],
  }),
  'PUT /bff/cpos/update-operator-information': (b) => ({
    body: {
      workFlow: 'AddressInfo',
      cpoId: b.operator.cpoId,
      cpoName: 'Matrix Betreiber geändert',
      cpoAddress: { street: 'Teststraße 4', zipCode: '10115', city: 'Berlin' },
    },
  }),
  'PUT /booking-service/bookings/update-erp-information': (b) => ({
    body: { cpoId: b.operator.cpoId, clientNumber: '4711', netLedgerAccountNr: '8400', paymentMethod: 'BANK_TRANSFER' },
  }),
  // 'add external user' to the customer (a new customer would name none that exists); each call a new address.
  'POST /bff/cpos/customer-id/:id/validate': () => ({}),
  'POST /bff/cpos/validate-email': () => ({ body: { email: 'matrix.free@cockpit.example' } }),
  'POST /bff/cpos/create-dashboard-user': (b) => ({
    body: {
      isNewCustomer: false,
      customerId: b.customer.customerId,
      firstName: 'Mia',
      lastName: 'Matrix',
      email: `matrix.user.${++matrixSerial}@cockpit.example`,
      role: 'Buchhaltung',
      productPackage: 'Prosessional',
      sendEmail: false,
    },
  }),
  // An invitation can be resent while the contract is CREATED_UNSIGNED, else 409.
  'POST /contract-management/send-invitation-email/:contractKey': () => ({ expect: [200, 409] }),
  'POST /contract-management/auth/save-rfid-tags': () => ({
    body: [{ serialNumber: `MATRIX-SN-${++matrixSerial}`, rfidTag: `MATRIX-TAG-${matrixSerial}` }],
  }),
  'POST /contract-management/create-contract': (b) => ({
    body: {
      endCustomerId: `MATRIX${++matrixSerial}`,
      cpoId: b.operator.cpoId,
      userType: 'LOCAL_ADMIN',
      firstName: 'Mia',
      lastName: 'Matrix',
      email: `matrix.contract.${matrixSerial}@example.de`,
      contractAddress: { street: 'Teststraße 5', zipCode: '10115', city: 'Berlin' },
      authType: 'RFID',
      rfidType: 'TAG',
      rfidTags: [`MATRIX-C-TAG-${matrixSerial}`],
      billingType: 'NO_BILLING',
      contractInfo: { startDate: '2026-01-01' },
    },
  }),
  // Terminate: the bag's contract may not be active (or already ended by an earlier caller): 409.
  'PUT /contract-management/update-contract': (b) => ({
    body: { contractKey: b.contract.contractKey, contractStatus: 'EXPIRED' },
    expect: [200, 409],
  }),
  'PUT /contract-management/change-contract-tarrif': (b) => {
    const next = new Date();
    next.setUTCDate(1);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const first = next.toISOString().slice(0, 10);
    return {
      body: {
        contractKey: b.contract.contractKey,
        fixTariff: 12.5,
        varTariff: 0.42,
        newTariffDate: first,
        newTariffCancellationDate: `${next.getUTCFullYear() + 1}${first.slice(4)}`,
      },
      expect: [200, 409],
    };
  },
  'POST /contract-management/end-customer-id/:id/validate/on-create': (b) => ({ query: { cpoId: b.operator.cpoId } }),
  'POST /contract-management/end-customer-id/:id/validate/on-update/:id2': () => ({}),
  // The bag's contract has bills, which are kept: 409 (the delete itself is in contracts.test.ts).
  'DELETE /contract-management/delete-contract/:id': () => ({ expect: [409] }),
  'GET /contract-management/pdf/:id': () => ({ query: { verificationId: 'not-the-contract-id' }, expect: [404] }),
  // No bill in the bag: a number that exists nowhere (scoping is in bookings.test.ts).
  'PUT /booking-service/bookings/billing-status-update': () => ({
    body: [{ billingNumber: 'R-MATRIX-NONE', billingStatus: 'PAID' }],
    expect: [404],
  }),
  'GET /booking-service/bookings/pdf/:billNumber': (b) => ({ query: { verificationId: b.bill.billId } }),
  // The bag's bill is GENERATED where the operator has one: the first caller sends it, later ones find it SENT.
  'POST /booking-service/bookings/send-bill-email': (b) => ({ body: { billNumbers: [b.bill.billNumber] }, expect: [200, 409] }),
  'POST /booking-service/bookings/download-bill': (b) => ({
    body: { billPdfDtoList: [{ billId: b.bill.billId, billNumber: b.bill.billNumber }] },
  }),
  // Admins only; a number that exists nowhere is refused per bill (the codes are in bills/run.test.ts).
  'POST /booking-service/bookings/regenerate-bills': () => ({ body: { billNumbers: ['R-MATRIX-NONE'] } }),
  'GET /booking-service/bookings/charging-history/export': (b) => ({
    query: { contractKey: b.contract.contractKey, startDate: '2025-01-01', endDate: '2026-03-31' },
    expect: [200, 204],
  }),
  // The invoices tab's file: Partner and Operator accounts and admins (spec 3 §6), so every caller of
  // the matrix; a customer of another type is refused (downloads.test.ts).
  'GET /booking-service/bookings/standard-csv': (b) => ({
    query: { locationIds: b.location.locationId, startDate: '2025-01-01', endDate: '2026-03-31' },
    expect: [200, 204],
  }),
  'GET /booking-service/bookings/generate/xml': (b) => ({
    // A range without bills (204): a file carries its creation time, so two files never read the same.
    query: { cpoId: b.operator.cpoId, locationIds: 'all', paymentMethod: 'SEPA', startDate: '2001-01-01', endDate: '2001-01-31' },
    expect: [204, 403],
  }),
  'GET /booking-service/bookings/generate/datev': (b) => ({
    query: { cpoId: b.operator.cpoId, locationIds: 'all', paymentMethod: 'SEPA', startDate: '2001-01-01', endDate: '2001-01-31' },
    expect: [204, 403],
  }),
  'GET /booking-service/bookings/generate/sepa': (b) => ({
    // A day without bills (204); the files themselves are in downloads/sepa.test.ts.
    query: { cpoId: b.operator.cpoId, collectionDate: '2001-01-01' },
    expect: [204, 403],
  }),
  'PUT /bff/ocpp-client/change-availability': (b) => ({
    body: { changeAvailabilityRequest: [{ connectorId: b.connector.connectorId, connectorStatus: 'IDLE' }] },
  }),
  // No station is connected in the matrix: the operation is recorded and refused (ocpp/operations.test.ts sends them).
  'POST /bff/ocpp-client/change-configuration': (b) => ({
    body: { connectorOperationType: 'TRIGGER_STATUS_NOTIFICATION', cpId: b.connector.cpId, connectorId: b.connector.connectorId },
    expect: [409],
  }),
  'POST /bff/connectors/:id/station-password': () => ({}),
  // The bag's contract is no configured STRIPE_SEPA one (the redo itself is in payments/payments.test.ts).
  'POST /contract-management/reconfigure-stripe-sepa/:id': () => ({ expect: [200, 409, 429] }),
  // No Stripe-Signature: refused (the signed events are in payments/*.test.ts).
  'POST /bff/payments/stripe/webhook': () => ({
    body: { type: 'checkout.session.completed', created: 1, data: { object: {} } },
    expect: [400],
  }),
  // The test mode's checkout page: a link that exists nowhere (payments.test.ts completes real ones).
  'GET /zahlung/testmodus': () => ({ query: { session: 'cs_test_matrix_none' }, expect: [404] }),
  'POST /zahlung/testmodus': () => ({ query: { session: 'cs_test_matrix_none' }, body: { accountHolder: 'Matrix' }, expect: [404] }),
};

// ---------------------------------------------------------------------------------------------
// Database fingerprint
// ---------------------------------------------------------------------------------------------

/**
 * Tables a refused request may write by design: the sign-in/reset/mail limits count refused
 * attempts. Everything else must be untouched by a 4xx answer.
 */
export const writtenOnRefusal = new Set([
  'throttles',
  // Every operation asked of a station is recorded, also one refused because the station is not connected.
  'ocpp_operations',
]);

/**
 * Per table `count(*)` and the sum of every row's hash: any insert, update or delete changes it.
 * One statement over every table of the schema (new tables included), ~10 ms on the small seed.
 */
export async function fingerprint(db: Db): Promise<Record<string, string>> {
  const tables = (
    (await db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`)) as unknown as {
      rows: { tablename: string }[];
    }
  ).rows
    .map((r) => r.tablename)
    .filter((t) => !writtenOnRefusal.has(t) && !t.startsWith('__drizzle'));
  const union = tables
    .map((t) => `select '${t}' as t, count(*)::text || ':' || coalesce(sum(hashtext(x::text)), 0)::text as f from "${t}" x`)
    .join(' union all ');
  const rows = ((await db.execute(sql.raw(union))) as unknown as { rows: { t: string; f: string }[] }).rows;
  return Object.fromEntries(rows.map((r) => [r.t, r.f]));
}

/** Tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]);
}
