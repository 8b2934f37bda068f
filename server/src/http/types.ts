import type { Db } from '../db/client';
import type { Env } from '../env';
import type { AuthContext, CallerCheck } from '../auth/scope';

export interface AppBindings {
  Variables: {
    /** The request's database handle: a transaction for writes, the pool for reads. */
    db: Db;
    env: Env;
    auth: AuthContext;
    /** Set while a read runs on an assumed caller that its own statement must confirm (`readAsCaller`). */
    callerCheck: CallerCheck | undefined;
    /** Set by a handler whose 4xx answer must still commit (e.g. refresh-token reuse revokes the family). */
    commitOnError: boolean;
  };
}
