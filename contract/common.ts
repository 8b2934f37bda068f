import * as z from 'zod/mini';

/** Every answer is `{ data: T }` (the spec reads `response.data.data`). */
export const envelope = <T extends z.ZodMiniType>(data: T) => z.object({ data });

/** Paged lists: `{ data: { totalNumberOfRecords, response: T[] } }`. Pages are zero-based. */
export const paged = <T extends z.ZodMiniType>(row: T) =>
  z.object({ totalNumberOfRecords: z.int().check(z.nonnegative()), response: z.array(row) });

export const pageSizes = [10, 20, 25] as const;

/** Query params for paging; the server caps `size` (the spec asks for 10000 in operator selects). */
export const pageQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  size: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10000)), 10),
});

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A yyyy-MM-dd that names a real day: 2026-02-30 rolls over in JavaScript, and PostgreSQL refuses it (and year 0) with an error, not an answer. */
export const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return ISO_DATE.test(s) && s >= '0001' && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

/** yyyy-MM-dd as sent on the wire, a real calendar date (one issue for a bad format and an impossible day alike). */
export const isoDateSchema = z.string().check(z.refine(isCalendarDate, 'yyyy-MM-dd'));

/** Comma-joined list in a query string (`locations=1,2,3`); empty entries dropped. */
/** `a, b,a` → ['a', 'b']: a comma-separated query parameter as a list without blanks or repeats. */
export const commaListSchema = z.pipe(
  z.optional(z.string()),
  z.transform((v: string | undefined) => (v ? [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean) : [])),
);

export const customerTypes = ['Operator', 'Partner'] as const;
export const customerTypeSchema = z.enum(customerTypes);

export const ADMIN_ROLE = 'oli_move_admin';
export const OPERATOR_ROLE = 'oli_move_operator';
export const ORIGIN_DASHBOARD = 'dashboard';

/**
 * The entity tag of an entity's version (`ETag`, `If-Match`) for every versioned write, and its
 * parser (accepts `"v3"`, `W/"v3"`, `v3`, `3`).
 */
export const etagFor = (version: number) => `"v${version}"`;
export function parseIfMatch(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const m = /^\s*(?:W\/)?"?v?(\d+)"?\s*$/.exec(header);
  return m ? Number(m[1]) : undefined;
}

/**
 * Parking lots in natural order (P1, P2, P10, not P1, P10, P2), wherever lots are listed or sorted,
 * on both sides: the server sorts in code, because PostgreSQL's (and PGlite's) default collation has
 * no numeric ordering.
 */
const lotCollator = new Intl.Collator('de', { numeric: true, sensitivity: 'base' });
export const compareParkingLots = (a: string, b: string): number => lotCollator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
export const sortParkingLots = (lots: readonly string[]): string[] => [...lots].sort(compareParkingLots);
