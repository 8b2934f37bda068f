import { createRequire, Module } from 'node:module';

/**
 * `@e-invoice-eu/core`, loaded without its spreadsheet library. It requires `@e965/xlsx` (~18 MB of
 * heap once loaded) for its spreadsheet mappings; invoices here are written from JSON and never use
 * it, so an empty module takes its place in require's cache before the library loads (issue 24: the
 * render worker's memory).
 *
 * Required here, after that, rather than imported: an `import` is hoisted above every statement,
 * and in the render worker's esbuild bundle (`render-pool.ts`) this file's body runs only after all
 * the bundle's package imports, so the empty module came too late and the worker carried the
 * spreadsheet library all along (its 48 MB heap ran out once the fonts were shared).
 */
const require = createRequire(import.meta.url);
const library = require.resolve('@e-invoice-eu/core');
const spreadsheets = createRequire(library).resolve('@e965/xlsx');
if (!require.cache[spreadsheets]) {
  const empty = new Module(spreadsheets);
  empty.filename = spreadsheets;
  empty.loaded = true;
  require.cache[spreadsheets] = empty;
}

export const eInvoiceCore = require(library) as typeof import('@e-invoice-eu/core');
/** Resolves a module as the library does (its own ajv is v8; the project's top-level ajv is v6). */
export const libraryRequire = createRequire(library);
