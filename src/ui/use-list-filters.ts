import { useState, type FormEvent } from 'react';
import { DEFAULT_PAGE_SIZE } from './data-table';

/** Trims every string filter (what is sent), leaving lists and other values as they are. */
function trimmed<F extends object>(filters: F): F {
  const out = { ...filters };
  for (const key of Object.keys(out) as Array<keyof F>) {
    const value = out[key];
    if (typeof value === 'string') out[key] = value.trim() as F[keyof F];
  }
  return out;
}

/**
 * Filter and paging state of a server-paged list: the filters as typed (draft), as last submitted
 * (applied, trimmed), the page and page size. Submitting, resetting, and changing the page size all
 * go back to the first page; `onPageChange` runs on every page change (e.g. to clear a selection).
 */
export function useListFilters<F extends object>(empty: F, onPageChange?: () => void) {
  const [draft, setDraft] = useState<F>(empty);
  const [applied, setApplied] = useState<F>(empty);
  const [page, setPageState] = useState(0);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);

  const setPage = (next: number) => {
    setPageState(next);
    onPageChange?.();
  };

  return {
    draft,
    applied,
    page,
    size,
    /** Sets one filter as typed. */
    setField: <K extends keyof F>(key: K, value: F[K]) => setDraft((d) => ({ ...d, [key]: value })),
    /** The search form's submit (Enter or the search button). */
    submit: (event: FormEvent) => {
      event.preventDefault();
      setApplied(trimmed(draft));
      setPage(0);
    },
    reset: () => {
      setDraft(empty);
      setApplied(empty);
      setPage(0);
    },
    setPage,
    setPageSize: (next: number) => {
      setSize(next);
      setPage(0);
    },
  };
}
