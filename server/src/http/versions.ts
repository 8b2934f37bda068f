import type { Context } from 'hono';
import { etagFor, parseIfMatch } from '../../../contract/common';
import { ApiError } from './errors';
import { ok } from './respond';

/**
 * The HTTP side of versioned writes: the version a write expects comes in as the body's `version`
 * or an `If-Match` header, and every answer with an entity names its version in `ETag`. The check
 * itself, under the entity's lock, is `lockAtVersion` (auth/scope.ts).
 */

/** The version an `If-Match` header asks for; none for no header or `*`; a header that is not `"v<n>"` is a 400. */
export function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '' || header.trim() === '*') return undefined;
  const v = parseIfMatch(header);
  if (v === undefined) throw new ApiError(400, 'VALIDATION_ERROR', 'If-Match must look like "v<version>"');
  return v;
}

/** The version a write expects: the body's `version`, else the `If-Match` header's; none means no check. */
export const versionToCheck = (c: Context, body: { version?: number }) => body.version ?? expectedVersion(c.req.header('if-match'));

/** `data` as the answer, with `version` (when the answer is one entity that has one) as its `ETag`. */
export function okWithVersion<T>(c: Context, data: T, version: number | undefined) {
  if (version !== undefined) c.header('ETag', etagFor(version));
  return ok(c, data);
}

/**
 * The items of a batch write, each with the version to check: its own `version`; an `If-Match`
 * header applies to a batch of one only (with several items the versions travel in the body).
 */
export function itemVersionsToCheck<T extends { version?: number }>(c: Context, items: T[]): T[] {
  const v = expectedVersion(c.req.header('if-match'));
  if (v === undefined) return items;
  if (items.length !== 1) throw new ApiError(400, 'VALIDATION_ERROR', 'If-Match applies to a single item; send versions in the body');
  return [{ ...items[0], version: items[0].version ?? v }];
}
