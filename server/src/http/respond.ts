import type { Context } from 'hono';

/** Every success answer is `{ data }` (contract/common.ts). */
export const ok = <T>(c: Context, data: T, status: 200 | 201 = 200) => c.json({ data }, status);

export const paged = <T>(c: Context, totalNumberOfRecords: number, response: T[]) => c.json({ data: { totalNumberOfRecords, response } });
