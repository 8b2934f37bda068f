import * as z from 'zod';

/** Every answer is `{ data: T }` (the spec reads `response.data.data`). */
export const envelope = <T extends z.ZodTypeAny>(data: T) => z.object({ data });

/** Paged lists: `{ data: { totalNumberOfRecords, response: T[] } }`. Pages are zero-based. */
export const paged = <T extends z.ZodTypeAny>(row: T) =>
  z.object({ totalNumberOfRecords: z.number().int().nonnegative(), response: z.array(row) });

export const pageSizes = [10, 20, 25] as const;

/** Query params for paging; the server caps `size` (the spec asks for 10000 in operator selects). */
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(10000).default(10),
});

/** yyyy-MM-dd as sent on the wire. */
export const isoDateSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'yyyy-MM-dd');

/** Comma-joined list in a query string (`locations=1,2,3`); empty entries dropped. */
/** `a, b,a` → ['a', 'b']: a comma-separated query parameter as a list without blanks or repeats. */
export const commaListSchema = z
  .string()
  .optional()
  .transform((v) => (v ? [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean) : []));

export const customerTypes = ['Operator', 'Partner'] as const;
export const customerTypeSchema = z.enum(customerTypes);

export const ADMIN_ROLE = 'oli_move_admin';
export const OPERATOR_ROLE = 'oli_move_operator';
export const ORIGIN_DASHBOARD = 'dashboard';
