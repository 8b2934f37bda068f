import { count, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { hashPassword, hashStationPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import { dashboardUsers } from '../db/schema/auth';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts, contractTariffs, pendingTariffChanges } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locationInfrastructure, locations, wallboxModels } from '../db/schema/locations';
import { erpValues, operators } from '../db/schema/operators';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { transactionLock } from '../db/sql-helpers';
import { runSeedBills } from './bookings';
import { costRequests, drawChargingRequests } from './cockpit';
import type { SeedContext, SizeSpec } from './common';
import { drawContracts, drawTariffHistory, makeBusinessCustomersAndRates, makeOneContractFree } from './contracts';
import { drawCustomersAndOperators } from './customers';
import { wallboxModelRows } from './german-data';
import { drawLocations } from './locations';
import { contractsToMandate, giveMandates } from './mandates';
import { drawErpValues } from './operators';
import { createRandom } from './random';
import { drawConnectors } from './stations';
import { demoStationPassword, drawOcppStations } from './ocpp';
import { ocppStations } from '../db/schema/ocpp';
import { drawDashboardUsers, type DemoLogins } from './users';

/**
 * The demo data set. Each area draws its rows in its own file (seed/<area>.ts), all from one random
 * stream in a fixed order, so the same size, seed and `now` give the same data; this file runs them
 * in that order and writes everything in one transaction.
 */

export type SeedSize = 'small' | 'demo';

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

/** The demo accounts' e-mails with the hashes of their passwords (random salts: the one part of the seed that differs per run). */
async function hashedLogins(): Promise<DemoLogins & { stations: string }> {
  const hashed = async (account: { email: string; password: string }) => ({
    email: account.email,
    passwordHash: await hashPassword(account.password),
  });
  const [admin, operator, partner, unverified, others] = await Promise.all([
    hashed(demoAccounts.admin),
    hashed(demoAccounts.operator),
    hashed(demoAccounts.partner),
    hashed(demoAccounts.unverified),
    hashPassword(demoAccounts.others.password),
  ]);
  return { admin, operator, partner, unverified, others: { passwordHash: others }, stations: hashStationPassword(demoStationPassword) };
}

/** Multi-row inserts sized below PostgreSQL's 65535 bind parameters. */
async function insertBatched<T extends PgTable>(db: Db, table: T, rows: T['$inferInsert'][]) {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]).length;
  const batch = Math.max(1, Math.floor(60_000 / columns));
  for (let i = 0; i < rows.length; i += batch) {
    await db.insert(table).values(rows.slice(i, i + batch));
  }
}

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(customers);
  return n === 0;
}

export interface SeedResult {
  size: SeedSize;
  ms: number;
  counts: Record<string, number>;
}

/** Every area's rows, drawn in the order that keeps the data set the same for the same seed. */
export async function drawRows(ctx: SeedContext) {
  const logins = await hashedLogins();
  const { customerRows, operatorRows } = drawCustomersAndOperators(ctx);
  const userRows = drawDashboardUsers(ctx, customerRows, operatorRows, logins);
  const erpRows = drawErpValues(ctx, operatorRows);
  const locationRows = drawLocations(ctx, operatorRows);
  const { connectorRows, infraRows } = drawConnectors(ctx, locationRows);
  const { contractRows, rfidRows, contractTags } = drawContracts(ctx, locationRows, connectorRows);
  const { requestRows } = drawChargingRequests(ctx, contractRows, locationRows, connectorRows, contractTags);
  const ocppRows = drawOcppStations(connectorRows, logins.stations, ctx.now);
  makeOneContractFree(contractRows);
  makeBusinessCustomersAndRates(contractRows);
  // Drawn after everything else, so the rest of the data set stays as it was before tariff history.
  const { tariffRows, changeRows } = drawTariffHistory(ctx, contractRows);
  costRequests(requestRows, tariffRows);
  const mandateRows = contractsToMandate(contractRows);
  return {
    mandateRows,
    tariffRows,
    changeRows,
    ocppRows,
    customerRows,
    operatorRows,
    userRows,
    erpRows,
    locationRows,
    infraRows,
    connectorRows,
    contractRows,
    rfidRows,
    requestRows,
  };
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
  const ctx = { spec: seedSizes[opts.size], now: opts.now, rnd: createRandom(opts.seed ?? 20260101) };
  const rows = await drawRows(ctx);
  let billCount = 0;
  let mandateCount = 0;
  const seeded = await db.transaction(async (tx) => {
    // Two instances starting together on one PostgreSQL: the second waits here and then finds data.
    await transactionLock(tx, 'seed');
    if (opts.onlyIfEmpty && !(await isDatabaseEmpty(tx))) return false;
    await insertBatched(tx, customers, rows.customerRows);
    await insertBatched(tx, operators, rows.operatorRows);
    await insertBatched(tx, dashboardUsers, rows.userRows);
    await insertBatched(tx, erpValues, rows.erpRows);
    await insertBatched(
      tx,
      wallboxModels,
      wallboxModelRows.map((m) => ({ ...m })),
    );
    await insertBatched(tx, locations, rows.locationRows);
    await insertBatched(tx, locationInfrastructure, rows.infraRows);
    await insertBatched(tx, connectors, rows.connectorRows);
    await insertBatched(tx, ocppStations, rows.ocppRows);
    await insertBatched(tx, contracts, rows.contractRows);
    // Before the bills: a bill's Stripe payment is drawn only for a contract with a mandate.
    mandateCount = await giveMandates(tx, rows.mandateRows);
    await insertBatched(tx, contractTariffs, rows.tariffRows);
    await insertBatched(tx, pendingTariffChanges, rows.changeRows);
    await insertBatched(tx, rfidTags, rows.rfidRows);
    await insertBatched(tx, chargingRequests, rows.requestRows);
    billCount = await runSeedBills(tx, ctx);
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
      customers: rows.customerRows.length,
      operators: rows.operatorRows.length,
      dashboardUsers: rows.userRows.length,
      locations: rows.locationRows.length,
      connectors: rows.connectorRows.length,
      contracts: rows.contractRows.length,
      rfidTags: rows.rfidRows.length,
      chargingRequests: rows.requestRows.length,
      bills: billCount,
      stripeSepaMandates: mandateCount,
    },
  };
}

/** Seeds only an empty database, so a restart keeps whatever the users changed. */
export async function seedIfEmpty(db: Db, size: SeedSize | 'none', now = new Date()): Promise<SeedResult | undefined> {
  if (size === 'none' || !(await isDatabaseEmpty(db))) return undefined;
  return seedDatabase(db, { size, now, onlyIfEmpty: true });
}
