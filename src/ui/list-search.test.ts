import { createMemoryHistory, createRootRoute, createRoute, createRouter, stripSearchParams } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE } from './paging';
import { keyParam, listSearch, optionalText, searchChoice, searchDate, searchList, searchParams, searchText } from './list-search';

const search = listSearch({ name: searchText(), ids: searchList() });
const parse = (raw: Record<string, unknown>) => search(raw as Parameters<typeof search>[0]);

describe('list search params', () => {
  it('fills defaults and falls back instead of failing on bad values', () => {
    expect(parse({})).toEqual({ name: '', ids: [], page: 0, size: DEFAULT_PAGE_SIZE });
    expect(search.defaults).toEqual({ name: '', ids: [], page: 0, size: DEFAULT_PAGE_SIZE });
    expect(parse({ name: 5, ids: 'x', page: -3, size: 7 })).toEqual({ name: '', ids: [], page: 0, size: DEFAULT_PAGE_SIZE });
    expect(parse({ name: ' Nord ', ids: ['b', 'a', 'b'], page: '4', size: '20' })).toEqual({
      name: 'Nord',
      ids: ['a', 'b'],
      page: 4,
      size: 20,
    });
    expect(parse({ name: 'x'.repeat(101) }).name).toBe('');
    expect(parse({ name: ` ${'x'.repeat(100)} ` }).name).toBe('x'.repeat(100));
  });

  it('pages are whole numbers from 0 to a million, sizes one of the page sizes', () => {
    expect(parse({ page: 2.5 }).page).toBe(0);
    expect(parse({ page: 'x' }).page).toBe(0);
    expect(parse({ page: 1_000_001 }).page).toBe(0);
    expect(parse({ page: 1_000_000 }).page).toBe(1_000_000);
    expect(parse({ size: 25 }).size).toBe(25);
    expect(parse({ size: 30 }).size).toBe(DEFAULT_PAGE_SIZE);
    expect(parse({ size: 20.5 }).size).toBe(DEFAULT_PAGE_SIZE);
  });

  it('a list is strings of 1–100 characters, at most its maximum, or empty as a whole', () => {
    const list = searchList(3);
    expect(list([' b', 'a '])).toEqual(['a', 'b']);
    expect(list(['a', 2])).toEqual([]);
    expect(list(['a', '  '])).toEqual([]);
    expect(list(['a', 'x'.repeat(101)])).toEqual([]);
    expect(list(['a', 'b', 'c', 'a'])).toEqual([]);
    expect(list(['a', 'b', 'a'])).toEqual(['a', 'b']);
    expect(list({ 0: 'a' })).toEqual([]);
  });

  it('dates, choices and optional texts fall back too', () => {
    expect(searchDate('2025-03-14')).toBe('2025-03-14');
    expect(searchDate('14.03.2025')).toBe('');
    expect(searchDate(20250314)).toBe('');
    expect(searchChoice(['a', 'b'])('b')).toBe('b');
    expect(searchChoice(['a', 'b'])('c')).toBeUndefined();
    expect(searchChoice(['a', 'b'], 'a')('c')).toBe('a');
    expect(optionalText(5)(' abc ')).toBe(' abc ');
    expect(optionalText(5)('abcdef')).toBeUndefined();
    expect(optionalText(200, 10)('short')).toBeUndefined();
    expect(optionalText(5)(5)).toBeUndefined();
    expect(searchParams({ edit: searchChoice(['tariff']), draft: optionalText(100) })({} as never)).toEqual({
      edit: undefined,
      draft: undefined,
    });
  });
});

describe('detail page path params', () => {
  const { parse: parseKey, stringify } = keyParam('id');
  it('trims an id of 1–100 characters and refuses anything else', () => {
    expect(parseKey({ id: ' K10001 ' })).toEqual({ id: 'K10001' });
    expect(parseKey({ id: 'x'.repeat(100) })).toEqual({ id: 'x'.repeat(100) });
    expect(() => parseKey({ id: '   ' })).toThrow();
    expect(() => parseKey({ id: 'x'.repeat(101) })).toThrow();
    expect(stringify({ id: 'K1' })).toEqual({ id: 'K1' });
  });
});

describe('a list route in the router', () => {
  const rootRoute = createRootRoute();
  const listRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: '/list',
    validateSearch: search,
    search: { middlewares: [stripSearchParams(search.defaults)] },
  });
  const makeRouter = (url: string) =>
    createRouter({ routeTree: rootRoute.addChildren([listRoute]), history: createMemoryHistory({ initialEntries: [url] }) });

  it('leaves the default values out of the URL and keeps the others', () => {
    const router = makeRouter('/list');
    // The app's registered route tree types `to` and `search`; this test has a tree of its own.
    const href = (next: Record<string, unknown>) => router.buildLocation({ to: '/list', search: next } as never).href;
    expect(href({ ...search.defaults })).toBe('/list');
    expect(href({ name: '', ids: [], page: 2, size: DEFAULT_PAGE_SIZE })).toBe('/list?page=2');
    const filtered = new URL(href({ name: 'Nord', ids: ['L1'], page: 0, size: 20 }), 'http://x');
    expect(Object.fromEntries(filtered.searchParams)).toEqual({ name: 'Nord', ids: '["L1"]', size: '20' });
  });

  it('opens a broken link with the defaults instead of an error', async () => {
    const router = makeRouter('/list?page=-3&size=7&name=5&ids=%22x%22');
    await router.load();
    const match = router.state.matches.at(-1) as { routeId: string; status: string; search: unknown } | undefined;
    expect(match?.routeId).toBe(listRoute.id);
    expect(match?.status).toBe('success');
    expect(match?.search).toEqual(search.defaults);
  });
});
