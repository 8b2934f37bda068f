import { pageSizes } from '../../contract/common';

/** Spec 1 §9: row-count choices (the contract's, which the server accepts); the first is the default. */
export const PAGE_SIZE_OPTIONS = pageSizes;
export const DEFAULT_PAGE_SIZE: number = PAGE_SIZE_OPTIONS[0];
