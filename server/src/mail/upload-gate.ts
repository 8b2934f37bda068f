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
 * One upload-route request per account at a time, from before its body is read until its answer:
 * each body in reading is megabytes of text and parsed JSON, and eight at once from two accounts
 * took the server from 400 to 760 MB. A waiting request's body stays in the socket, unread. Per
 * account, not in all: a user on a slow link holds up only their own next upload.
 */
const turns = new Map<string, Promise<void>>();

async function takeTurn(userId: string): Promise<() => void> {
  const before = turns.get(userId) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = before.then(() => mine);
  turns.set(userId, tail);
  await before;
  return () => {
    release();
    if (turns.get(userId) === tail) turns.delete(userId);
  };
}

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
    const userId = c.get('auth').user.id;
    const done = await takeTurn(userId);
    try {
      // After the wait: the uploads refused meanwhile count.
      await checkThrottles(c.get('db'), [refusedUploadKey(userId)]);
      await next();
    } finally {
      done();
    }
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
