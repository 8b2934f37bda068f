import type { Db } from '../db/client';
import type { Env } from '../env';
import type { AuthContext } from '../auth/scope';

export interface AppBindings {
  Variables: {
    /** The request's database handle: a transaction for writes, the pool for reads. */
    db: Db;
    env: Env;
    auth: AuthContext;
    /** Set by a handler whose 4xx answer must still commit (e.g. refresh-token reuse revokes the family). */
    commitOnError: boolean;
  };
}
