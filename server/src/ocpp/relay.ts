import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Relay } from './operations';

/** Channels of the hand-over between instances; the payload is an operation's id (the row is the record). */
const ANNOUNCED = 'ocpp_operation';
const FINISHED = 'ocpp_operation_done';

/**
 * Several instances on one PostgreSQL: a station's socket lives on one of them. An operation asked
 * on another is announced with NOTIFY; every instance LISTENs, the one holding the socket picks the
 * row up and sends it, and its NOTIFY of the finished row wakes the instance that waits to answer.
 * One connection per instance listens; a lost one is opened again after a second.
 */
export function startPgRelay(
  databaseUrl: string,
  db: Db,
  on: {
    announced: (operationId: number) => void;
    finished: (operationId: number) => void;
    channel?: (name: string, payload: string) => void;
  },
  log: (m: string) => void,
  extraChannels: string[] = [],
): Relay {
  let client: pg.Client | undefined;
  let closed = false;
  const listen = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl });
    c.on('notification', (n) => {
      if (n.channel === ANNOUNCED) on.announced(Number(n.payload));
      else if (n.channel === FINISHED) on.finished(Number(n.payload));
      else on.channel?.(n.channel, n.payload ?? '');
    });
    c.on('error', (err) => {
      log(`ocpp relay: ${err.name}`);
      void c.end().catch(() => {});
      if (client === c) client = undefined;
      setTimeout(() => void listen().catch(() => {}), 1000).unref();
    });
    await c.connect();
    for (const channel of [ANNOUNCED, FINISHED, ...extraChannels]) await c.query(`LISTEN ${channel}`);
    client = c;
  };
  const ready = listen();
  const notify = async (channel: string, payload: string) => {
    await db.execute(sql`select pg_notify(${channel}, ${payload})`);
  };
  return {
    ready,
    announce: async (id) => {
      await notify(ANNOUNCED, String(id));
      return true;
    },
    finished: (id) => notify(FINISHED, String(id)),
    notify,
    close: async () => {
      closed = true;
      await client?.end().catch(() => {});
    },
  };
}
