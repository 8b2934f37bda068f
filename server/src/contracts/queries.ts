import { and, asc, count, desc, eq, ilike, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod/mini';
import type { ContractDetail, ContractRow, contractListQuerySchema } from '../../../contract/contracts';
import { contractStatusColours } from '../../../contract/locations';
import { sortParkingLots } from '../../../contract/common';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts, files } from '../db/schema/contracts';
import { locations } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { containsPattern, qualified, transactionLock } from '../db/sql-helpers';
import { pendingTariffChange } from './tariff-history';

export type ContractRowDb = typeof contracts.$inferSelect;
export type ContractInsert = typeof contracts.$inferInsert;

const newestBillStatus = sql<
  (typeof bills.$inferSelect)['billingStatus']
>`(select ${bills.billingStatus} from ${bills} where ${bills.contractKey} = ${qualified(contracts.contractKey)} order by ${bills.billGenerationDate} desc limit 1)`;

// ---------------------------------------------------------------------------------------------
// The /nutzer list
// ---------------------------------------------------------------------------------------------

/** The contracts of the caller's operators, filtered as spec 2 §2 says, newest first. */
export async function listContracts(
  db: Db,
  scope: Scope,
  q: z.output<typeof contractListQuerySchema>,
): Promise<{ total: number; rows: ContractRow[] }> {
  const where = and(
    scope.where(contracts.cpoId),
    q.endCustomerId ? ilike(contracts.endCustomerId, containsPattern(q.endCustomerId)) : undefined,
    q.name ? ilike(sql`${contracts.firstName} || ' ' || ${contracts.lastName}`, containsPattern(q.name)) : undefined,
    q.rfId
      ? sql`exists (select 1 from ${rfidTags} where ${rfidTags.contractKey} = ${qualified(contracts.contractKey)} and (${rfidTags.rfidTag} ilike ${containsPattern(q.rfId)} or ${rfidTags.serialId} ilike ${containsPattern(q.rfId)}))`
      : undefined,
    q.locationIds.length > 0 ? inArray(contracts.locationId, q.locationIds) : undefined,
    q.userTypes.length > 0 ? inArray(contracts.userType, q.userTypes) : undefined,
  );
  // The total rides along as a column of the page's statement; only a page past the end asks alone.
  const total = db.select({ n: count() }).from(contracts).where(where);
  const rows = await db
    .select({
      listTotal: sql<number>`(${total})`.mapWith(Number),
      contractKey: contracts.contractKey,
      endCustomerId: contracts.endCustomerId,
      firstName: contracts.firstName,
      lastName: contracts.lastName,
      locationId: contracts.locationId,
      locationName: locations.locationName,
      parkingLotNumbers: contracts.parkingLotNumbers,
      contractStatus: contracts.contractStatus,
      userType: contracts.userType,
      billingStatus: newestBillStatus,
      billNumber: sql<
        string | null
      >`(select ${bills.billNumber} from ${bills} where ${bills.contractKey} = ${qualified(contracts.contractKey)} order by ${bills.billGenerationDate} desc limit 1)`,
      rfId: sql<
        string | null
      >`(select string_agg(${rfidTags.rfidTag}, ',' order by ${rfidTags.rfidTag}) from ${rfidTags} where ${rfidTags.contractKey} = ${qualified(contracts.contractKey)})`,
    })
    .from(contracts)
    .leftJoin(locations, eq(locations.locationId, contracts.locationId))
    .where(where)
    .orderBy(desc(contracts.createdAt), asc(contracts.contractKey))
    .limit(q.size)
    .offset(q.page * q.size);
  return {
    total: rows.length ? rows[0].listTotal : (await total)[0].n,
    rows: rows.map((r) => ({
      id: r.contractKey,
      contractKey: r.contractKey,
      endCustomerId: r.endCustomerId,
      name: `${r.firstName} ${r.lastName}`,
      location: r.locationId ? `${r.locationId}: ${r.locationName ?? ''}` : null,
      parkingLotNumbers: sortParkingLots(r.parkingLotNumbers),
      contractStatus: r.contractStatus,
      contractStatusMapping: { enumName: r.contractStatus, colourCode: contractStatusColours[r.contractStatus] },
      userType: r.userType,
      billingStatus: r.billingStatus ?? null,
      billNumber: r.billNumber ?? null,
      rfId: r.rfId ?? null,
    })),
  };
}

// ---------------------------------------------------------------------------------------------
// One contract
// ---------------------------------------------------------------------------------------------

const amount = (v: string | null) => (v === null ? null : Number(v));

/** The contract as the detail page shows it, if it is one of the caller's operators'. */
export async function getContractDetail(db: Db, scope: Scope, contractKey: string): Promise<ContractDetail | undefined> {
  const [row] = await db
    .select({
      c: contracts,
      cpoName: operators.cpoName,
      createManualEndCustomerId: operators.createManualEndCustomerId,
      locationName: locations.locationName,
      pdfName: files.fileName,
      billingStatus: newestBillStatus,
    })
    .from(contracts)
    .innerJoin(operators, eq(operators.cpoId, contracts.cpoId))
    .leftJoin(locations, eq(locations.locationId, contracts.locationId))
    .leftJoin(files, eq(files.id, contracts.contractPdfFileId))
    .where(and(eq(contracts.contractKey, contractKey), scope.where(contracts.cpoId)));
  if (!row) return undefined;
  const c = row.c;
  const [cards, pending] = await Promise.all([
    db
      .select({ rfidTag: rfidTags.rfidTag, serialId: rfidTags.serialId })
      .from(rfidTags)
      .where(eq(rfidTags.contractKey, contractKey))
      .orderBy(asc(rfidTags.id)),
    pendingTariffChange(db, contractKey),
  ]);
  return {
    contractKey: c.contractKey,
    contractId: c.contractId,
    contractNumber: c.contractNumber,
    endCustomerId: c.endCustomerId,
    endCustomerIdManuallyCreated: c.endCustomerIdManuallyCreated,
    contractStatus: c.contractStatus,
    contractStatusMapping: { enumName: c.contractStatus, colourCode: contractStatusColours[c.contractStatus] },
    userType: c.userType,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    contractAddress: { careOf: c.careOf, street: c.street, zipCode: c.zipCode, city: c.city, countryCode: c.countryCode },
    cpoId: c.cpoId,
    cpoName: row.cpoName,
    createManualEndCustomerId: row.createManualEndCustomerId,
    locationId: c.locationId,
    locationName: row.locationName,
    parkingLotNumbers: sortParkingLots(c.parkingLotNumbers),
    authType: c.authType,
    rfidType: c.rfidType,
    rfidTags: cards.map((t) => t.rfidTag),
    rfidSerialId: cards.map((t) => t.serialId),
    billingType: c.billingType,
    billingCycle: c.billingCycle,
    billingStatus: row.billingStatus ?? null,
    contractInfo: {
      contractPDF: row.pdfName,
      startDate: c.startDate,
      endDate: c.endDate,
      fixTariff: amount(c.fixTariff),
      varTariff: amount(c.varTariff),
      onboardingFee: Number(c.onboardingFee),
      fixTariffPerChargingRequest: Number(c.fixTariffPerChargingRequest),
    },
    contractChangeTariff: pending
      ? {
          newTariffDate: pending.newTariffDate,
          newTariffCancellationDate: pending.newTariffCancellationDate,
          fixTariff: Number(pending.fixTariff),
          varTariff: Number(pending.varTariff),
          onboardingFee: Number(pending.onboardingFee),
          fixTariffPerChargingRequest: Number(pending.fixTariffPerChargingRequest),
        }
      : null,
    pdfAvailable: c.contractPdfFileId !== null,
    paymentMethod: c.paymentMethod,
    contractPaymentDetails: { contractMandateReference: c.contractMandateReference, contractIban: c.contractIban },
    stripeSepaPaymentDetailsAreConfigured: c.stripeSepaPaymentDetailsAreConfigured,
    erpSystemParameters: { debitAccountNr: c.debitAccountNr, costCenterNumber: c.costCenterNumber, vatId: c.vatId },
    companyName: c.companyName,
    customerVatId: c.customerVatId,
    buyerReference: c.buyerReference,
    authCode: c.authCode,
    version: c.version,
  };
}

/** The contract if it is in scope, locked until the transaction ends (every write to it waits here). */
export async function lockContract(db: Db, scope: Scope, contractKey: string): Promise<ContractRowDb | undefined> {
  const [row] = await db
    .select()
    .from(contracts)
    .where(and(eq(contracts.contractKey, contractKey), scope.where(contracts.cpoId)))
    .for('update');
  return row;
}

export async function insertContract(db: Db, row: ContractInsert): Promise<ContractRowDb> {
  const [created] = await db.insert(contracts).values(row).returning();
  return created;
}

/** Writes the columns given and moves the version on by one; answers the new row. */
export async function writeContract(db: Db, contractKey: string, set: Partial<ContractInsert>): Promise<ContractRowDb> {
  const [row] = await db
    .update(contracts)
    .set({ ...set, updatedAt: new Date(), version: sql`${contracts.version} + 1` })
    .where(eq(contracts.contractKey, contractKey))
    .returning();
  return row;
}

export async function deleteContractRow(db: Db, contractKey: string): Promise<void> {
  const [row] = await db.delete(contracts).where(eq(contracts.contractKey, contractKey)).returning({ fileId: contracts.contractPdfFileId });
  if (row?.fileId) await db.delete(files).where(eq(files.id, row.fileId));
}

// ---------------------------------------------------------------------------------------------
// Uniqueness look-ups (the unique indexes decide; these only name the owner in the answer)
// ---------------------------------------------------------------------------------------------

/** The end customer id and operator of a live contract (not EXPIRED / UNSIGNED_EXPIRED) with this e-mail, other than `exceptKey`. */
export async function emailOwner(db: Db, email: string, exceptKey?: string): Promise<{ endCustomerId: string; cpoId: string } | undefined> {
  const [row] = await db
    .select({ endCustomerId: contracts.endCustomerId, cpoId: contracts.cpoId })
    .from(contracts)
    .where(
      and(
        sql`lower(${contracts.email}) = lower(${email})`,
        sql`${contracts.contractStatus} not in ('EXPIRED', 'UNSIGNED_EXPIRED')`,
        exceptKey ? ne(contracts.contractKey, exceptKey) : undefined,
      ),
    )
    .limit(1);
  return row;
}

export async function endCustomerIdTaken(db: Db, endCustomerId: string, exceptKey?: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(contracts)
    .where(and(eq(contracts.endCustomerId, endCustomerId), exceptKey ? ne(contracts.contractKey, exceptKey) : undefined))
    .limit(1);
  return row !== undefined;
}

export type CardRow = {
  id: number;
  rfidTag: string;
  serialId: string;
  contractKey: string | null;
  owner: string | null;
  ownerCpoId: string | null;
};

/** The cards with any of these tags or serials, with the end customer id of the contract holding them. */
export async function findCards(db: Db, tags: string[], serials: string[]): Promise<CardRow[]> {
  if (tags.length === 0 && serials.length === 0) return [];
  return db
    .select({
      id: rfidTags.id,
      rfidTag: rfidTags.rfidTag,
      serialId: rfidTags.serialId,
      contractKey: rfidTags.contractKey,
      owner: contracts.endCustomerId,
      ownerCpoId: contracts.cpoId,
    })
    .from(rfidTags)
    .leftJoin(contracts, eq(contracts.contractKey, rfidTags.contractKey))
    .where(
      or(
        tags.length > 0 ? inArray(rfidTags.rfidTag, tags) : undefined,
        serials.length > 0 ? inArray(rfidTags.serialId, serials) : undefined,
      ),
    );
}

/** Hands the contract's cards back to stock. */
export async function releaseCards(db: Db, contractKey: string, keepIds: number[] = []): Promise<void> {
  await db
    .update(rfidTags)
    .set({ contractKey: null })
    .where(and(eq(rfidTags.contractKey, contractKey), keepIds.length > 0 ? sql`${rfidTags.id} not in ${keepIds}` : undefined));
}

export async function assignCards(db: Db, contractKey: string, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.update(rfidTags).set({ contractKey }).where(inArray(rfidTags.id, ids));
}

/** A new card for a tag nobody has registered yet; its serial is made from the next number (call under the RFID lock). */
export async function insertCards(db: Db, contractKey: string, tags: string[]): Promise<void> {
  if (tags.length === 0) return;
  const [{ maxNo }] = await db
    .select({ maxNo: sql<number>`coalesce(max(substring(${rfidTags.serialId} from '^SN(\\d+)$')::bigint), 100000)`.mapWith(Number) })
    .from(rfidTags);
  await db
    .insert(rfidTags)
    .values(tags.map((rfidTag, i) => ({ rfidTag, serialId: `SN${String(maxNo + 1 + i).padStart(10, '0')}`, contractKey })));
}

/** The next contract number of the year, `V-<year>-<n>` (the seed's format); holds the number lock until the transaction ends. */
export async function nextContractNumber(db: Db, year: number): Promise<string> {
  await transactionLock(db, 'contracts.contract_number');
  const prefix = `V-${year}-`;
  const [{ maxNo }] = await db
    .select({
      maxNo: sql<number>`coalesce(max(substring(${contracts.contractNumber} from ${`^${prefix}(\\d+)$`})::int), 0)`.mapWith(Number),
    })
    .from(contracts);
  return `${prefix}${String(maxNo + 1).padStart(6, '0')}`;
}

/** Parking lots that exist at the location (from its connectors). */
export async function locationParkingLots(db: Db, locationId: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ parkingLot: connectors.parkingLot })
    .from(connectors)
    .where(and(eq(connectors.locationId, locationId), eq(connectors.removed, false), isNotNull(connectors.parkingLot)));
  return new Set(rows.map((r) => r.parkingLot!));
}

export async function insertFile(db: Db, row: typeof files.$inferInsert): Promise<void> {
  await db.insert(files).values(row);
}

export async function deleteFile(db: Db, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id));
}

/** The contract's PDF if the contract is in scope and the verification id matches. */
export async function contractPdf(db: Db, scope: Scope, contractKey: string, verificationId: string) {
  const [row] = await db
    .select({ fileName: files.fileName, mimeType: files.mimeType, content: files.content, contractNumber: contracts.contractNumber })
    .from(contracts)
    .innerJoin(files, eq(files.id, contracts.contractPdfFileId))
    .where(and(eq(contracts.contractKey, contractKey), eq(contracts.contractId, verificationId), scope.where(contracts.cpoId)));
  return row;
}

export async function hasBills(db: Db, contractKey: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(bills)
    .where(eq(bills.contractKey, contractKey))
    .limit(1);
  return row !== undefined;
}

/**
 * A parking lot renamed at a location (a connector's lot P1 became H000): the contracts there that
 * name the old lot name the new one, in the rename's transaction (ARCHITECTURE.md, 'a lot rename').
 * All renames of one write at once, so a swap of two lots follows both; each contract changed moves
 * its version on by one. Answers the contracts that changed.
 */
export async function followLotRenames(db: Db, renames: readonly { locationId: string; from: string; to: string }[]): Promise<string[]> {
  if (renames.length === 0) return [];
  const byLocation = new Map<string, Map<string, string>>();
  for (const r of renames) {
    const map = byLocation.get(r.locationId) ?? new Map<string, string>();
    map.set(r.from, r.to);
    byLocation.set(r.locationId, map);
  }
  const changed: string[] = [];
  for (const [locationId, map] of byLocation) {
    const rows = await db
      .select({ contractKey: contracts.contractKey, lots: contracts.parkingLotNumbers })
      .from(contracts)
      .where(
        and(
          eq(contracts.locationId, locationId),
          sql`${contracts.parkingLotNumbers} && array[${sql.join(
            [...map.keys()].map((lot) => sql`${lot}`),
            sql`, `,
          )}]::text[]`,
        ),
      )
      .for('update');
    for (const row of rows) {
      const lots = [...new Set(row.lots.map((lot) => map.get(lot) ?? lot))];
      await db
        .update(contracts)
        .set({ parkingLotNumbers: lots, updatedAt: new Date(), version: sql`${contracts.version} + 1` })
        .where(eq(contracts.contractKey, row.contractKey));
      changed.push(row.contractKey);
    }
  }
  return changed;
}
