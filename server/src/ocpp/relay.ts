import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { logFault } from '../http/faults';
import type { Relay } from './operations';

/** Channels of the hand-over between instances; the payload is an operation's id (the row is the record). */
const ANNOUNCED = 'ocpp_operation';
const FINISHED = 'ocpp_operation_done';

/** Waits between attempts to listen again: 1 s, doubling, at most 30 s; forever. */
export const RELAY_BACKOFF_MS = { first: 1000, max: 30_000 };

/**
 * Several instances on one PostgreSQL: a station's socket lives on one of them. An operation asked
 * on another is announced with NOTIFY; every instance LISTENs, the one holding the socket picks the
 * row up and sends it, and its NOTIFY of the finished row wakes the instance that waits to answer.
 * One connection per instance listens. A lost one (an 'error' or 'end' event) is opened again with
 * a backoff for as long as the instance runs: a failed connect emits no 'error' event, so it used to
 * end the listening for good, silently, after one failed attempt. Each loss and each recovery is
 * logged. Notifications sent while no connection listens are lost: an operation asked then is
 * answered STATION_NOT_CONNECTED after the pick-up wait, as for a station no instance holds.
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
  backoff = RELAY_BACKOFF_MS,
): Relay {
  let client: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;

  const again = () => {
    if (closed || retry) return;
    const wait = Math.min(backoff.max, backoff.first * 2 ** Math.min(failures, 20));
    failures++;
    retry = setTimeout(() => {
      retry = undefined;
      const attempt = failures;
      void listen().then(
        () => log(`ocpp relay: listening again (attempt ${attempt})`),
        (err: unknown) => {
          logFault(log, `ocpp relay: attempt ${attempt} to listen again failed`, err);
          again();
        },
      );
    }, wait);
    retry.unref();
  };

  const listen = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'cockpit-ocpp-relay' });
    c.on('notification', (n) => {
      if (n.channel === ANNOUNCED) on.announced(Number(n.payload));
      else if (n.channel === FINISHED) on.finished(Number(n.payload));
      else on.channel?.(n.channel, n.payload ?? '');
    });
    let lost = false;
    const lose = (err?: unknown) => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => {});
      if (client !== c) return;
      client = undefined;
      if (closed) return;
      if (err) logFault(log, 'ocpp relay: lost the listening connection', err);
      else log('ocpp relay: lost the listening connection (ended)');
      again();
    };
    c.on('error', lose);
    c.on('end', () => lose());
    try {
      await c.connect();
      for (const channel of [ANNOUNCED, FINISHED, ...extraChannels]) await c.query(`LISTEN ${channel}`);
    } catch (err) {
      lost = true;
      void c.end().catch(() => {});
      throw err;
    }
    if (closed) {
      void c.end().catch(() => {});
      return;
    }
    client = c;
    failures = 0;
  };
  // The first connection must work (a wrong DATABASE_URL fails the start); later losses are retried.
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
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
