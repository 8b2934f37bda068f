import { EventEmitter } from 'node:events';
// CommonJS: Node's ESM loader sees only some of its named exports (TimeoutError is not among them).
import ocppRpc from 'ocpp-rpc';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ocppConfigurations, ocppOperations } from '../db/schema/ocpp';
import type { ConfigurationKey, OperationStatus } from '../../../contract/ocpp';
import type { CentralSystem } from './central-system';
import { logFault, type Log } from '../http/faults';
import { outcomeOf } from './operation-calls';

/**
 * The operations side: an operation is first a row of ocpp_operations (who, when, what), then sent
 * by the instance that holds the station's socket, then finished with the station's answer. The
 * row is also the hand-over between instances (relay.ts): the asking instance announces it, the
 * holding one picks it up, and both learn of the finished row by its id.
 */

export interface OperationRow {
  id: number;
  status: OperationStatus;
  answer: unknown;
  errorCode: string | null;
}

export interface Relay {
  /** Tells the other instances that this operation waits for a station they may hold; false when there are none. */
  announce: (operationId: number) => Promise<boolean>;
  /** Tells every instance that this operation is finished. */
  finished: (operationId: number) => Promise<void>;
  /** Any other message to every instance (live status). */
  notify: (channel: string, payload: string) => Promise<void>;
  /** Resolves once the relay listens. */
  ready: Promise<void>;
  close: () => Promise<void>;
}

/** One instance alone (PGlite): nobody else could hold a socket. */
export const noRelay: Relay = {
  announce: async () => false,
  finished: async () => {},
  notify: async () => {},
  ready: Promise.resolve(),
  close: async () => {},
};

export interface Operations {
  /** Records and runs an operation; resolves with the finished row once the station answered, or with why not. */
  request: (op: {
    cpId: string;
    connectorId: string;
    type: string;
    action: string;
    params: unknown;
    requestedBy: string;
  }) => Promise<OperationRow>;
  /** Runs a pending operation announced by another instance if this one holds the station's socket. */
  pickUp: (operationId: number) => Promise<void>;
  /** Another instance finished an operation. */
  onFinished: (operationId: number) => void;
}

/** How long an announced operation may wait for an instance to pick it up before the station counts as not connected. */
const PICKUP_MS = 2000;

export function createOperations(deps: {
  db: Db;
  central: CentralSystem;
  relay: () => Relay;
  instanceId: string;
  timeoutMs: number;
  log: Log;
}): Operations {
  const { db, central, instanceId } = deps;
  const done = new EventEmitter();
  done.setMaxListeners(0);

  const readRow = async (id: number): Promise<OperationRow> => {
    const [row] = await db
      .select({ id: ocppOperations.id, status: ocppOperations.status, answer: ocppOperations.answer, errorCode: ocppOperations.errorCode })
      .from(ocppOperations)
      .where(eq(ocppOperations.id, id));
    return row;
  };

  const finish = async (id: number, status: OperationStatus, answer: unknown, errorCode: string | null) => {
    await db
      .update(ocppOperations)
      .set({ status, answer: answer ?? null, errorCode, answeredAt: new Date() })
      .where(and(eq(ocppOperations.id, id), eq(ocppOperations.status, 'pending')));
  };

  /** Sends a pending operation this instance has claimed to the station and records the answer. */
  const execute = async (id: number) => {
    const [claimed] = await db
      .update(ocppOperations)
      .set({ pickedBy: instanceId })
      .where(and(eq(ocppOperations.id, id), eq(ocppOperations.status, 'pending'), isNull(ocppOperations.pickedBy)))
      .returning({ cpId: ocppOperations.cpId, action: ocppOperations.action, params: ocppOperations.params });
    if (!claimed) return;
    try {
      const answer = await central.call(claimed.cpId, claimed.action, claimed.params);
      const outcome = outcomeOf(answer);
      if (claimed.action === 'GetConfiguration')
        await storeConfiguration(db, claimed.cpId, answer as { configurationKey?: ConfigurationKey[] });
      await finish(id, outcome.status, answer, null);
    } catch (err) {
      const code = (err as { rpcErrorCode?: unknown }).rpcErrorCode;
      if (typeof code === 'string') await finish(id, 'error', null, code);
      else if (err instanceof ocppRpc.TimeoutError) await finish(id, 'timed_out', null, null);
      else await finish(id, 'offline', null, null);
    }
    done.emit(String(id));
    await deps
      .relay()
      .finished(id)
      .catch((err: unknown) => logFault(deps.log, `ocpp: finish of operation ${id} not announced to the other instances`, err));
  };

  const waitFor = (id: number, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        done.off(String(id), onDone);
        resolve(false);
      }, ms);
      const onDone = () => {
        clearTimeout(timer);
        resolve(true);
      };
      done.once(String(id), onDone);
    });

  return {
    request: async (op) => {
      const [row] = await db
        .insert(ocppOperations)
        .values({
          cpId: op.cpId,
          connectorId: op.connectorId,
          operationType: op.type,
          action: op.action,
          params: op.params,
          requestedBy: op.requestedBy,
        })
        .returning({ id: ocppOperations.id });
      if (central.isConnected(op.cpId)) {
        await execute(row.id);
        return readRow(row.id);
      }
      const finished = waitFor(row.id, deps.timeoutMs + PICKUP_MS);
      const others = await deps.relay().announce(row.id);
      // Nobody picked it up in time: no instance holds the station's socket.
      const pickup = new Promise<void>((resolve) => setTimeout(resolve, others ? PICKUP_MS : 0));
      const picked = await Promise.race([finished.then(() => true), pickup.then(() => false)]);
      if (!picked) {
        const [unclaimed] = await db
          .update(ocppOperations)
          .set({ status: 'offline', answeredAt: new Date() })
          .where(and(eq(ocppOperations.id, row.id), eq(ocppOperations.status, 'pending'), isNull(ocppOperations.pickedBy)))
          .returning({ id: ocppOperations.id });
        if (!unclaimed) await finished;
      }
      const result = await readRow(row.id);
      if (result.status === 'pending') {
        // The holding instance went away mid-call: the operation ends here as unanswered.
        await finish(row.id, 'timed_out', null, null);
        return readRow(row.id);
      }
      return result;
    },
    pickUp: async (id) => {
      const [row] = await db.select({ cpId: ocppOperations.cpId }).from(ocppOperations).where(eq(ocppOperations.id, id));
      if (row && central.isConnected(row.cpId)) await execute(id);
    },
    onFinished: (id) => {
      done.emit(String(id));
    },
  };
}

/** The configuration a station reported replaces what it reported before for those keys. */
async function storeConfiguration(db: Db, cpId: string, answer: { configurationKey?: ConfigurationKey[] }) {
  const keys = answer.configurationKey ?? [];
  if (keys.length === 0) return;
  const now = new Date();
  await db
    .insert(ocppConfigurations)
    .values(keys.map((k) => ({ cpId, key: k.key, value: k.value ?? null, readonly: k.readonly, reportedAt: now })))
    .onConflictDoUpdate({
      target: [ocppConfigurations.cpId, ocppConfigurations.key],
      set: { value: sql`excluded.value`, readonly: sql`excluded.readonly`, reportedAt: sql`excluded.reported_at` },
    });
}

/** The newest operations of a station, for its detail page. */
export async function operationHistory(db: Db, cpId: string, limit = 50) {
  return db
    .select({
      operationId: ocppOperations.id,
      connectorOperationType: ocppOperations.operationType,
      requestedBy: ocppOperations.requestedBy,
      requestedAt: ocppOperations.requestedAt,
      status: ocppOperations.status,
      answer: ocppOperations.answer,
      errorCode: ocppOperations.errorCode,
      answeredAt: ocppOperations.answeredAt,
    })
    .from(ocppOperations)
    .where(eq(ocppOperations.cpId, cpId))
    .orderBy(desc(ocppOperations.id))
    .limit(limit);
}
