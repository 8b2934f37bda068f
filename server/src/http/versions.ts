import { parseIfMatch } from '../../../contract/stations';
import { ApiError } from './errors';

/** The version an `If-Match` header asks for; a header that is not `"v<n>"` is a 400. */
export function expectedVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '' || header.trim() === '*') return undefined;
  const v = parseIfMatch(header);
  if (v === undefined) throw new ApiError(400, 'VALIDATION_ERROR', 'If-Match must look like "v<version>"');
  return v;
}
