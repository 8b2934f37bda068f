import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode } from '../../../contract/errors';
import { parseIfMatch, type StationErrorCode } from '../../../contract/stations';
import { ApiError } from '../http/errors';

/** The version an `If-Match` header asks for; a header that is not `"v<n>"` is a 400. */
export function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '' || header.trim() === '*') return undefined;
  const v = parseIfMatch(header);
  if (v === undefined) throw new ApiError(400, 'VALIDATION_ERROR', 'If-Match must look like "v<version>"');
  return v;
}

/** Codes of contract/stations.ts live outside the shared catalogue; the body is the same shape. */
export const stationError = (status: ContentfulStatusCode, code: StationErrorCode, message: string, detail?: unknown) =>
  new ApiError(status, code as unknown as ErrorCode, message, detail);
