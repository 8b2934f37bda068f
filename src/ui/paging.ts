/** Spec 1 §9: row-count choices; other areas use the first entry as their page size. */
export const PAGE_SIZE_OPTIONS = [10, 20, 25] as const;
export const DEFAULT_PAGE_SIZE: number = PAGE_SIZE_OPTIONS[0];
