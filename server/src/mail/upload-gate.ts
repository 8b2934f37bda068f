import { fileTypeFromBuffer } from 'file-type';
import type { MiddlewareHandler } from 'hono';
import { checkThrottles, hitThrottle, type ThrottleRule } from '../http/throttle';
import type { AppBindings } from '../http/types';
import { readJson } from '../http/validate';
import { checkUpload, uploadLimitsOf, uploadRefusal } from './attachment-check';
import { supportMailLimit, supportMailKey } from './handlers';

/** The file a route's body carries, where it came in, and what its type may be (by its first bytes). */
export interface FoundUpload {
  bytes: Uint8Array;
  path: string;
  allowed: readonly string[];
  /** The message of an UNSUPPORTED_FILE_TYPE refusal on this route. */
  typeMessage: string;
}

/** Refused uploads per account: a few mistakes an hour, not a stream of crafted files for the parser. */
export const refusedUploadLimit: ThrottleRule = { limit: 10, windowSeconds: 3600, blockSeconds: 3600, maxBlockSeconds: 6 * 3600 };

export const refusedUploadKey = (userId: string) => `upload-refused:${userId}`;

/**
 * The check of an upload route, after its caller is known and before its transaction opens (so no
 * lock is held while the file is parsed): the file is parsed in a worker with time and memory
 * limits (`attachment-check.ts`), and a refusal counts against the caller's mail quota and against
 * its refused uploads, which, once over their limit, answer 429 before any parsing. The handler's
 * own check then finds the verdict kept. A body without a file is left to the handler's validation.
 */
export function checkUploadFirst(find: (body: unknown) => FoundUpload | undefined): {
  quota: MiddlewareHandler<AppBindings>;
  check: MiddlewareHandler<AppBindings>;
} {
  // Before the body is read: a caller whose refused uploads are spent sends no more megabytes for
  // the server to receive and parse as JSON (the bench's attackers held another tenant's list at
  // ~330 ms while their 429s still read 4 MB bodies each).
  const quota: MiddlewareHandler<AppBindings> = async (c, next) => {
    await checkThrottles(c.get('db'), [refusedUploadKey(c.get('auth').user.id)]);
    await next();
  };
  const check: MiddlewareHandler<AppBindings> = async (c, next) => {
    const found = find(await readJson(c));
    if (found) {
      const db = c.get('db');
      const userId = c.get('auth').user.id;
      await checkThrottles(db, [refusedUploadKey(userId)]);
      const type = await fileTypeFromBuffer(found.bytes);
      const allowed = type && found.allowed.includes(type.ext);
      const verdict = allowed ? await checkUpload(type.ext, found.bytes, uploadLimitsOf(c.get('env'))) : 'invalid';
      const refusal = uploadRefusal(verdict, found.path, found.typeMessage);
      if (refusal) {
        await hitThrottle(db, refusedUploadKey(userId), refusedUploadLimit);
        await hitThrottle(db, supportMailKey(userId), supportMailLimit);
        throw refusal;
      }
    }
    await next();
  };
  return { quota, check };
}
