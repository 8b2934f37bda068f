import { useState, type FormEvent } from 'react';
import { DEFAULT_PAGE_SIZE } from './paging';
import type { ListState } from './list-search';

/** Trims every string filter (what is sent), leaving lists and other values as they are. */
function trimmed<F extends object>(filters: F): F {
  const out = { ...filters };
  for (const key of Object.keys(out) as Array<keyof F>) {
    const value = out[key];
    if (typeof value === 'string') out[key] = value.trim() as F[keyof F];
  }
  return out;
}

function filtersOf<F extends object>(state: ListState<F>): F {
  const { page: _page, size: _size, ...filters } = state;
  return filters as unknown as F;
}

/**
 * Where a list keeps what is applied: the URL's search params (the route passes them and a
 * navigate), so a reload, the back button and a shared link keep filters and page; or, for a list
 * embedded in another page, component state.
 */
export interface ListStateSource<F extends object> {
  state: ListState<F>;
  onChange: (next: ListState<F>) => void;
}

/**
 * Filter and paging state of a server-paged list: the filters as typed (draft), as last submitted
 * (applied, trimmed), the page and page size. Submitting, resetting, and changing the page size all
 * go back to the first page; `onPageChange` runs on every page change (e.g. to clear a selection).
 */
export function useListFilters<F extends object>(empty: F, onPageChange?: () => void, source?: ListStateSource<F>) {
  const [local, setLocal] = useState<ListState<F>>(() => ({ ...empty, page: 0, size: DEFAULT_PAGE_SIZE }));
  const state = source?.state ?? local;
  const applied = filtersOf(state);
  const [draft, setDraft] = useState<F>(applied);
  // The back button or a link changes what is applied from outside: the form shows it again. What
  // this list itself just applied (the URL may follow a moment later) leaves the typed text alone.
  const appliedKey = JSON.stringify(applied);
  const [known, setKnown] = useState(appliedKey);
  const [pending, setPending] = useState<string | null>(null);
  if (appliedKey !== known) {
    setKnown(appliedKey);
    if (appliedKey === pending) setPending(null);
    else setDraft(applied);
  }

  const change = (next: ListState<F>) => {
    setPending(JSON.stringify(filtersOf(next)));
    if (source) source.onChange(next);
    else setLocal(next);
    onPageChange?.();
  };

  return {
    draft,
    applied,
    page: state.page,
    size: state.size,
    /** Sets one filter as typed. */
    setField: <K extends keyof F>(key: K, value: F[K]) => setDraft((d) => ({ ...d, [key]: value })),
    /** The search form's submit (Enter or the search button). */
    submit: (event: FormEvent) => {
      event.preventDefault();
      change({ ...trimmed(draft), page: 0, size: state.size });
    },
    reset: () => {
      setDraft(empty);
      change({ ...empty, page: 0, size: state.size });
    },
    setPage: (page: number) => change({ ...applied, page, size: state.size }),
    setPageSize: (size: number) => change({ ...applied, page: 0, size }),
  };
}
