import { act, renderHook } from '@testing-library/react';
import type { FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE_SIZE } from './paging';
import { useListFilters } from './use-list-filters';

const event = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;
const empty = { name: '', ids: [] as string[] };

describe('useListFilters', () => {
  it('applies the typed filters only on submit, trimmed, and goes back to page 1', () => {
    const onPageChange = vi.fn();
    const { result } = renderHook(() => useListFilters(empty, onPageChange));
    act(() => result.current.setPage(3));
    act(() => result.current.setField('name', '  Mitte '));
    act(() => result.current.setField('ids', ['L1', 'L2']));
    expect(result.current.applied).toEqual(empty);
    expect(result.current.page).toBe(3);
    const submit = event();
    act(() => result.current.submit(submit));
    expect(submit.preventDefault).toHaveBeenCalled();
    expect(result.current.applied).toEqual({ name: 'Mitte', ids: ['L1', 'L2'] });
    expect(result.current.draft.name).toBe('  Mitte ');
    expect(result.current.page).toBe(0);
    expect(onPageChange).toHaveBeenCalledTimes(2);
  });

  it('reset clears both, and a new page size starts at page 1', () => {
    const { result } = renderHook(() => useListFilters(empty));
    act(() => result.current.setField('name', 'x'));
    act(() => result.current.submit(event()));
    act(() => result.current.setPage(2));
    act(() => result.current.setPageSize(25));
    expect(result.current.size).toBe(25);
    expect(result.current.page).toBe(0);
    expect(result.current.size).not.toBe(DEFAULT_PAGE_SIZE);
    act(() => result.current.setPage(1));
    act(() => result.current.reset());
    expect(result.current.draft).toEqual(empty);
    expect(result.current.applied).toEqual(empty);
    expect(result.current.page).toBe(0);
  });
});

describe('useListFilters with the URL as its source', () => {
  it('reads what is applied from the source, writes changes to it and shows an outside change in the form', () => {
    let state = { name: 'Nord', ids: [] as string[], page: 2, size: 20 };
    const onChange = vi.fn((next: typeof state) => {
      state = next;
    });
    const { result, rerender } = renderHook(() => useListFilters(empty, undefined, { state, onChange }));
    expect(result.current.applied).toEqual({ name: 'Nord', ids: [] });
    expect(result.current.draft.name).toBe('Nord');
    expect(result.current.page).toBe(2);
    expect(result.current.size).toBe(20);

    act(() => result.current.setField('name', ' Süd '));
    act(() => result.current.submit(event()));
    expect(onChange).toHaveBeenLastCalledWith({ name: 'Süd', ids: [], page: 0, size: 20 });
    rerender();
    // Its own change keeps the text as typed.
    expect(result.current.draft.name).toBe(' Süd ');

    // The back button: the URL holds the old filters again.
    state = { name: 'Nord', ids: ['L1'], page: 1, size: 20 };
    rerender();
    expect(result.current.draft).toEqual({ name: 'Nord', ids: ['L1'] });
    expect(result.current.page).toBe(1);
  });
});
