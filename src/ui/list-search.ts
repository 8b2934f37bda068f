import * as z from 'zod/mini';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './paging';

/** What a server-paged list keeps in the URL: its applied filters, the page and the page size. */
export type ListState<F> = F & { page: number; size: number };

const pageSchema = z.catch(z.coerce.number().check(z.int(), z.gte(0), z.lte(1_000_000)), 0);
const sizeSchema = z.catch(
  z.coerce.number().check(
    z.int(),
    z.refine((n) => (PAGE_SIZE_OPTIONS as readonly number[]).includes(n)),
  ),
  DEFAULT_PAGE_SIZE,
);

// `.default` after `.catch` makes each field optional for links and navigation (the router types
// search params from the schema's input), while a present but broken value still falls back.

/** A text filter in the URL: trimmed, at most `max` characters; anything else falls back to empty. */
export const searchText = (max = 100) => z._default(z.catch(z.string().check(z.trim(), z.maxLength(max)), ''), '');
/** A list filter in the URL (e.g. location ids): strings only, sorted and unique; anything else is empty. */
export const searchList = (max = 100) =>
  z._default(
    z.catch(
      z.pipe(
        z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))).check(z.maxLength(max)),
        z.transform((v: string[]) => [...new Set(v)].sort()),
      ),
      [],
    ),
    [],
  );

/**
 * The zod schema of a list's search params: the filters' own shape plus page and size. Every field
 * falls back to its default instead of failing, so a hand-edited or outdated link still opens the
 * list (on page 1 with the filters that make sense).
 */
export function listSearchSchema<S extends z.core.$ZodLooseShape>(filters: S) {
  return z.object({ ...filters, page: z._default(pageSchema, 0), size: z._default(sizeSchema, DEFAULT_PAGE_SIZE) });
}

/**
 * The search params to write for `state`: values equal to the empty filters, page 0 and the default
 * size are left undefined (the router leaves them out of the URL and the schema fills them in again),
 * so an unfiltered list has a plain URL and a shared link stays short.
 */
export function toListSearch<F extends object>(state: ListState<F>, empty: F): ListState<F> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    const base = key === 'page' ? 0 : key === 'size' ? DEFAULT_PAGE_SIZE : (empty as Record<string, unknown>)[key];
    const isDefault = Array.isArray(value) ? value.length === 0 && Array.isArray(base) : value === base;
    out[key] = isDefault ? undefined : value;
  }
  return out as ListState<F>;
}

const keySchema = z.string().check(z.trim(), z.minLength(1), z.maxLength(100));

/**
 * The path parameter of a detail page (`/nutzer/$id`): an entity's id or key from the server,
 * trimmed, 1–100 characters; anything else is no page of ours. One parser for every detail route,
 * as the route tree is on the first route.
 */
export const keyParam = <K extends string>(name: K) => ({
  parse: (raw: Record<K, string>) => ({ [name]: keySchema.parse(raw[name]) }) as Record<K, string>,
  stringify: (p: Record<K, string>) => p,
});
