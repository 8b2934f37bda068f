import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE } from './paging';
import { listSearchSchema, searchList, searchText, toListSearch } from './list-search';

const schema = listSearchSchema({ name: searchText(), ids: searchList() });
const empty = { name: '', ids: [] as string[] };

describe('list search params', () => {
  it('fills defaults and falls back instead of failing on bad values', () => {
    expect(schema.parse({})).toEqual({ name: '', ids: [], page: 0, size: DEFAULT_PAGE_SIZE });
    expect(schema.parse({ name: 5, ids: 'x', page: -3, size: 7 })).toEqual({ name: '', ids: [], page: 0, size: DEFAULT_PAGE_SIZE });
    expect(schema.parse({ name: ' Nord ', ids: ['b', 'a', 'b'], page: '4', size: '20' })).toEqual({
      name: 'Nord',
      ids: ['a', 'b'],
      page: 4,
      size: 20,
    });
    expect(schema.parse({ name: 'x'.repeat(101) }).name).toBe('');
  });

  it('writes only what differs from the defaults', () => {
    expect(toListSearch({ ...empty, page: 0, size: DEFAULT_PAGE_SIZE }, empty)).toEqual({
      name: undefined,
      ids: undefined,
      page: undefined,
      size: undefined,
    });
    expect(toListSearch({ name: 'Nord', ids: ['L1'], page: 2, size: 20 }, empty)).toEqual({ name: 'Nord', ids: ['L1'], page: 2, size: 20 });
  });
});
