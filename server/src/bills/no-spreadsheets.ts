import { createRequire, Module } from 'node:module';

/**
 * `@e-invoice-eu/core` requires a spreadsheet library (`@e965/xlsx`, ~18 MB of heap once loaded)
 * for its spreadsheet mappings. Invoices here are written from JSON and never use it, so an empty
 * module takes its place in require's cache before the library loads (issue 24: the render worker's
 * memory). Imported first by `e-invoice.ts`.
 */
const require = createRequire(import.meta.url);
const spreadsheets = createRequire(require.resolve('@e-invoice-eu/core')).resolve('@e965/xlsx');
if (!require.cache[spreadsheets]) {
  const empty = new Module(spreadsheets);
  empty.filename = spreadsheets;
  empty.loaded = true;
  require.cache[spreadsheets] = empty;
}
