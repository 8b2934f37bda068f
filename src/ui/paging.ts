import type { pageSizes } from '../../contract/common';

/**
 * Spec 1 §9: row-count choices, the contract's (which the server accepts); the first is the default.
 * Spelled out, held to the contract by its type: contract/common.ts carries zod schemas, which
 * the first route (list-search.ts reads the size) leaves out.
 */
export const PAGE_SIZE_OPTIONS = [10, 20, 25] as const satisfies typeof pageSizes;
export const DEFAULT_PAGE_SIZE: number = PAGE_SIZE_OPTIONS[0];
