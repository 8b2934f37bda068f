import type { Db } from '../db/client';
import type { Env } from '../env';
import type { Log } from './faults';

/**
 * A request's context variables (`c.get(...)`). The layers above http add theirs by declaration
 * merging (auth/scope.ts adds the caller: `auth`, `callerCheck`), so http names nothing above it.
 */
export interface AppVariables {
  /** The request's database handle: a transaction for writes, the pool for reads. */
  db: Db;
  env: Env;
  /** The server's log, for faults caught where no answer reports them (`logFault`). */
  log: Log;
  /** Set by a handler whose 4xx answer must still commit (e.g. refresh-token reuse revokes the family). */
  commitOnError: boolean;
  /**
   * Set by a write handler for work that must see the committed write and that the answer waits
   * for (a status change reaching the stations). It runs on the root handle, outside the
   * transaction; its failure does not change the answer.
   */
  afterCommit?: () => Promise<void>;
}

export interface AppBindings {
  Variables: AppVariables;
}
