import { sql } from 'drizzle-orm';
import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

/**
 * The column types every schema file uses. One schema file per area (this folder; drizzle-kit
 * reads all of it, drizzle.config.ts), for PGlite and PostgreSQL alike. Enumerations are text
 * columns with CHECK constraints rather than pg enums: adding a value then needs no `ALTER TYPE`,
 * which PGlite and transactional migrations handle badly.
 */

// Both drivers hand bytea back as a Uint8Array subclass; normalise to Buffer for the rest of the code.
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (v) => v,
  fromDriver: (v) => Buffer.from(v),
});

export const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const inList = (col: string, values: readonly string[]) => sql.raw(`${col} in (${values.map((v) => `'${v}'`).join(', ')})`);
