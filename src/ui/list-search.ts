import type { SearchSchemaInput } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './paging';

/*
 * Every route's search and path params are read here, by plain functions rather than zod: the route
 * tree with every route's definitions is on the first route (the sign-in page), which stays free of
 * zod (scripts/check-budgets.ts fails when zod appears there). Each field falls back to its default
 * instead of failing, so a hand-edited or outdated link still opens the page.
 */

/** One search param: takes whatever the URL holds and gives a valid value, its default when absent or broken. */
export type SearchField<T> = (raw: unknown) => T;
type Fields = Record<string, SearchField<unknown>>;
type Values<S extends Fields> = { [K in keyof S]: ReturnType<S[K]> };

/** What a server-paged list keeps in the URL: its applied filters, the page and the page size. */
export type ListState<F> = F & { page: number; size: number };

/**
 * A route's `validateSearch`. Links and navigations may leave out any field (the router types their
 * `search` from the parameter); `defaults` is what an empty search gives, for `stripSearchParams`.
 */
export interface SearchParser<T> {
  (raw: Partial<T> & SearchSchemaInput): T;
  readonly defaults: T;
}

export function searchParams<S extends Fields>(fields: S): SearchParser<Values<S>> {
  const parse = (raw: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const key in fields) out[key] = fields[key]!(raw[key]);
    return out as Values<S>;
  };
  return Object.assign(parse, { defaults: parse({}) }) as unknown as SearchParser<Values<S>>;
}

const isString = (raw: unknown): raw is string => typeof raw === 'string';

/** A text filter: trimmed, at most `max` characters; anything else is empty. */
export const searchText =
  (max = 100): SearchField<string> =>
  (raw) =>
    isString(raw) && raw.trim().length <= max ? raw.trim() : '';

/** A list filter (e.g. location ids): at most `max` strings of 1–100 characters, trimmed, sorted and unique; anything else is empty. */
export const searchList =
  (max = 100): SearchField<string[]> =>
  (raw) => {
    if (!Array.isArray(raw) || raw.length > max) return [];
    const items = raw.map((item) => (isString(item) ? item.trim() : ''));
    return items.every((item) => item && item.length <= 100) ? [...new Set(items)].sort() : [];
  };

/** 'yyyy-MM-dd' or '' (the page's default range). */
export const searchDate: SearchField<string> = (raw) => (isString(raw) && /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : '');

/** One of `values`; anything else is `fallback` (undefined without one). */
export function searchChoice<const T extends string>(values: readonly T[]): SearchField<T | undefined>;
export function searchChoice<const T extends string>(values: readonly T[], fallback: T): SearchField<T>;
export function searchChoice<const T extends string>(values: readonly T[], fallback?: T): SearchField<T | undefined> {
  return (raw) => (values.includes(raw as T) ? (raw as T) : fallback);
}

/** A value handed over untrimmed (a draft's id, a token): `min`–`max` characters, otherwise undefined. */
export const optionalText =
  (max: number, min = 0): SearchField<string | undefined> =>
  (raw) =>
    isString(raw) && raw.length >= min && raw.length <= max ? raw : undefined;

const searchPage: SearchField<number> = (raw) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 && n <= 1_000_000 ? n : 0;
};

const searchSize: SearchField<number> = (raw) => {
  const n = Number(raw);
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(n) ? n : DEFAULT_PAGE_SIZE;
};

/** A server-paged list's search: its filters plus page (0-based) and size (one of the page sizes). */
export const listSearch = <S extends Fields>(filters: S) => searchParams({ ...filters, page: searchPage, size: searchSize });

/** The search of a list without filters (customers, operators, RFID): one parser for all of them. */
export const pageSearch = listSearch({});

/**
 * The path parameter of a detail page (`/nutzer/$id`): an entity's id or key from the server,
 * trimmed, 1–100 characters; anything else is no page of ours.
 */
export const keyParam = <K extends string>(name: K) => ({
  parse: (raw: Record<K, string>) => {
    const key = isString(raw[name]) ? raw[name].trim() : '';
    if (!key || key.length > 100) throw new Error(`The path parameter ${name} is not an id`);
    return { [name]: key } as Record<K, string>;
  },
  stringify: (p: Record<K, string>) => p,
});
