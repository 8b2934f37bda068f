import { asc, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { RfidRow } from '../../../contract/rfid';
import type { Db } from '../db/client';
import { contracts } from '../db/schema/contracts';
import { rfidTags } from '../db/schema/rfid';

/** SQL of RFID card management (spec 2 §7). Admins only: no scope. */

export async function listRfidTags(db: Db, page: number, size: number): Promise<{ total: number; rows: RfidRow[] }> {
  const total = db.select({ n: count() }).from(rfidTags);
  const rows = await db
    .select({ serialId: rfidTags.serialId, rfidTag: rfidTags.rfidTag, listTotal: sql<number>`(${total})`.mapWith(Number) })
    .from(rfidTags)
    // Newest first, so the cards just added are on the first page.
    .orderBy(sql`${rfidTags.id} desc`)
    .limit(size)
    .offset(page * size);
  return { total: rows.length ? rows[0].listTotal : (await total)[0].n, rows: rows.map(({ listTotal: _t, ...r }) => r) };
}

/** Stored cards whose serial or tag is one of these, with the end customer of the contract holding each. */
export async function findStoredRfids(db: Db, serials: string[], tags: string[]) {
  if (serials.length === 0 && tags.length === 0) return [];
  return db
    .select({ serialId: rfidTags.serialId, rfidTag: rfidTags.rfidTag, endCustomerId: contracts.endCustomerId })
    .from(rfidTags)
    .leftJoin(contracts, eq(contracts.contractKey, rfidTags.contractKey))
    .where(or(serials.length ? inArray(rfidTags.serialId, serials) : undefined, tags.length ? inArray(rfidTags.rfidTag, tags) : undefined))
    .orderBy(asc(rfidTags.id));
}

export async function insertRfidTags(db: Db, rows: { serialId: string; rfidTag: string }[]) {
  await db.insert(rfidTags).values(rows);
}
