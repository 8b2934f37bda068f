/**
 * Outbox replay bench (issue 3): how long the real outbox (src/offline/outbox.ts, on
 * fake-indexeddb) takes to replay BENCH_OUTBOX_WRITES (default 500) writes queued while offline
 * against the real server (in-process, fresh PGlite, SEED=small), and whether each one was applied
 * exactly once. Part of `npm run bench`; alone: `npm run bench:outbox` / `tsx bench/outbox-replay.ts`.
 *
 * Faults on the write requests (seeded, so a run can be repeated with BENCH_OUTBOX_SEED):
 * - BENCH_OUTBOX_FAIL (default 0.05): the request fails before it reaches the server;
 * - BENCH_OUTBOX_LOST (default 0.10): the server handles the request but the client never sees the
 *   answer, half of them after the answer arrived, half while the request is still in flight (the
 *   resend then races the original).
 * Each fault is a network error for the client (`fetch` rejects with a TypeError), so the outbox
 * resends with the same Idempotency-Key. BENCH_OUTBOX_BACKOFF=kick (default) treats each fault as a
 * short drop of the connection that comes back at once: the bench fires the same replay the app
 * fires on the `online` event. BENCH_OUTBOX_BACKOFF=real waits out the outbox's own backoff (2 s and
 * up per fault, the whole queue stalls meanwhile), which takes minutes.
 *
 * BENCH_OUTBOX_DELAY_MS (default 0): latency added to every write request, as on a weak mobile
 * line; the outbox sends several connectors side by side (PARALLEL_SCOPES), which is what this shows.
 * BENCH_DATABASE_URL: an empty PostgreSQL database to run the server on instead of PGlite.
 *
 * Checks, after the replay, on the server's database: every write's key is recorded, each
 * connector's version went up by exactly its number of writes, and its final parking lot / status is
 * the last one written; on the wire: no key was applied more than once (a fresh 2xx answer, not one
 * marked Idempotency-Replayed). Lost or duplicated writes > 0 → non-zero exit code.
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inArray } from 'drizzle-orm';
import { defaultRuntimeConfig } from '../contract/config';
import type { ChangeAvailabilityBody, ParkingLotUpdateItem, StationListRow } from '../contract/stations';
import { resetRuntimeConfig } from '../src/api/config';
import { clearTokens, setTokenPair } from '../src/auth/token-store';
import { availabilityWrites, parkingLotWrite, withQueuedVersions } from '../src/features/stations/station-rules';
import { Outbox } from '../src/offline/outbox';
import { countWrites, type NewWrite, type OutboxWrite } from '../src/offline/outbox-write';
import { createDb } from '../server/src/db/client';
import { idempotencyKeys } from '../server/src/db/schema/http';
import { connectors } from '../server/src/db/schema/stations';
import { loadEnv } from '../server/src/env';
import { startServer } from '../server/src/server';
import { benchEnv, signIn } from './bench-kit';

export interface OutboxReplayResult {
  writes: number;
  connectors: number;
  seconds: number;
  writesPerSecond: number;
  /** Write requests on the wire (first sends and resends). */
  requests: number;
  retries: number;
  injectedFailed: number;
  injectedLostAfterAnswer: number;
  injectedLostInFlight: number;
  /** Resends answered from the server's idempotency record. */
  replayedAnswers: number;
  /** 409 IDEMPOTENCY_KEY_IN_PROGRESS answers (a resend met its original still running). */
  inProgressAnswers: number;
  /** Writes the outbox parked as failed, by error code. */
  failedWrites: Record<string, number>;
  lost: number;
  duplicated: number;
  /** Connectors whose final parking lot or status is not the last one written. */
  wrongFinalState: number;
  requestMs: { median: number; p95: number; max: number };
  confirmMs: { median: number; p95: number; max: number };
  ok: boolean;
}

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got ${raw}`);
  return value;
};

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), max: sorted.at(-1) ?? NaN };
};

/** mulberry32: a small seeded PRNG, so a run with the same seed injects the same faults. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- browser stand-ins (the bench only) -----------------------------------------------------

let online = true;

/** navigator.onLine drives isOnline(); Node ≤ 20 has no navigator, Node ≥ 21 one without onLine. */
function installBrowserStandIns(): void {
  const nav = (globalThis as { navigator?: object }).navigator;
  if (nav) Object.defineProperty(nav, 'onLine', { configurable: true, get: () => online });
  else
    Object.defineProperty(globalThis, 'navigator', {
      configurable: true,
      value: {
        get onLine() {
          return online;
        },
      },
    });
  // The token store keeps the session in localStorage (absent in Node 20, file-backed or missing in later ones).
  const data = new Map<string, string>();
  const storage: Storage = {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (key) => data.get(key) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (key) => void data.delete(key),
    setItem: (key, value) => void data.set(key, String(value)),
  };
  Object.defineProperty(globalThis, 'localStorage', { configurable: true, value: storage });
}

// ---- the plan: which writes go to which connector ----------------------------------------------

interface PlannedWrite {
  key?: string;
  connectorId: string;
  build: (queued: readonly OutboxWrite[]) => NewWrite;
  /** Version the write must carry (the one the previous write of this connector leaves behind). */
  version: number;
}

interface ConnectorPlan {
  row: StationListRow;
  writes: number;
  lastLot: string | null;
  lastStatus: string;
}

function plan(
  rows: StationListRow[],
  total: number,
  random: () => number,
): { writes: PlannedWrite[]; byConnector: Map<string, ConnectorPlan> } {
  const usable = rows.filter((r) => r.connectorStatus !== 'INACTIVE' && r.locationId);
  if (usable.length === 0) throw new Error('the operator sees no connector that takes a parking lot');
  const byConnector = new Map<string, ConnectorPlan>(
    usable.map((row) => [row.connectorId, { row, writes: 0, lastLot: row.address.parkingLot, lastStatus: row.connectorStatus }]),
  );
  const writes: PlannedWrite[] = [];
  for (let i = 0; i < total; i++) {
    // Random interleaving across connectors; per connector the writes form a version chain, so a
    // write replayed out of order (or twice) would meet a stale version.
    const c = byConnector.get(usable[Math.floor(random() * usable.length)].connectorId)!;
    const { row } = c;
    const version = row.version + c.writes;
    const toggles = row.connectorStatus === 'IDLE' || row.connectorStatus === 'CONNECTED_UNAVAILABLE';
    // Built the way the app's wizards build them: from the row as the user saw it plus what is
    // already queued for the connector (withQueuedVersions), at the moment of enqueueing.
    let build: (queued: readonly OutboxWrite[]) => NewWrite;
    // Every fourth write of a connector that may switch is an Active/Standby switch (it needs a lot).
    if (toggles && c.lastLot && c.writes % 4 === 3) {
      const status = c.lastStatus === 'IDLE' ? 'CONNECTED_UNAVAILABLE' : 'IDLE';
      build = (queued) => availabilityWrites(withQueuedVersions([row], queued), status, queued)[0]!;
      c.lastStatus = status;
    } else {
      // ≤ 5 characters, unique across all connectors (lots must be unique per location).
      const lot = `Q${(i + 1).toString(36).padStart(2, '0')}`;
      build = (queued) => parkingLotWrite(withQueuedVersions([row], queued), { [row.connectorId]: lot }, queued);
      c.lastLot = lot;
    }
    c.writes++;
    writes.push({ connectorId: row.connectorId, build, version });
  }
  for (const [id, c] of byConnector) if (c.writes === 0) byConnector.delete(id);
  return { writes, byConnector };
}

function versionOf(input: NewWrite): number | undefined {
  const body = input.request.body;
  return Array.isArray(body)
    ? (body as ParkingLotUpdateItem[])[0]?.version
    : (body as ChangeAvailabilityBody).changeAvailabilityRequest[0]?.version;
}

// ---- the bench ---------------------------------------------------------------------------------

async function listConnectors(base: string, token: string): Promise<StationListRow[]> {
  const res = await fetch(`${base}/bff/connectors/get-by-cpo?page=0&size=10000`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`connector list failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { response: StationListRow[] } }).data.response;
}

export async function runOutboxReplayBench(): Promise<OutboxReplayResult> {
  const WRITES = num('BENCH_OUTBOX_WRITES', 500);
  const FAIL = num('BENCH_OUTBOX_FAIL', 0.05);
  const LOST = num('BENCH_OUTBOX_LOST', 0.1);
  const DELAY_MS = Number(process.env.BENCH_OUTBOX_DELAY_MS ?? 0);
  const SEED = num('BENCH_OUTBOX_SEED', 3);
  const TIMEOUT_S = num('BENCH_OUTBOX_TIMEOUT_S', 600);
  const realBackoff = process.env.BENCH_OUTBOX_BACKOFF === 'real';
  const random = prng(SEED);

  installBrowserStandIns();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cpo-cockpit-outbox-bench-'));
  // PGlite in a fresh folder; BENCH_DATABASE_URL runs against an empty PostgreSQL database instead.
  const env = loadEnv(benchEnv(dataDir));
  console.log(`\nOutbox replay bench: ${WRITES} writes, faults ${FAIL * 100}% failed + ${LOST * 100}% lost answers, seed ${SEED}`);
  const t0 = performance.now();
  const server = await startServer(env, { log: (m) => console.log(`  [outbox] ${m}`) });
  console.log(`  [outbox] ready in ${((performance.now() - t0) / 1000).toFixed(1)} s (data dir ${dataDir})`);
  const base = `http://127.0.0.1:${server.port}`;
  let serverClosed = false;
  const realFetch = globalThis.fetch;
  let outbox: Outbox | null = null;
  const unregister: (() => void)[] = [];

  try {
    resetRuntimeConfig({
      ...defaultRuntimeConfig,
      services: {
        userService: `${base}/user-service`,
        bff: `${base}/bff`,
        contractManagement: `${base}/contract-management`,
        bookingService: `${base}/booking-service`,
      },
    });
    setTokenPair(await signIn(base, 'operator'));
    const rows = await listConnectors(base, localStorage.getItem('accessToken')!);
    const { writes: planned, byConnector } = plan(rows, WRITES, random);

    // ---- the wire: fault injection and bookkeeping -----------------------------------------
    const wire = {
      requests: 0,
      keys: new Set<string>(),
      failed: 0,
      lostAfter: 0,
      lostInFlight: 0,
      replayed: 0,
      inProgress: 0,
      fresh: new Map<string, number>(),
      durations: [] as number[],
      background: [] as Promise<unknown>[],
    };
    const kick = () => {
      // What the app does on the `online` event: replay at once, without waiting out the backoff.
      if (!realBackoff) void outbox?.replay({ skipBackoff: true });
    };
    const networkError = () => new TypeError('fetch failed (injected by the bench)');
    const record = async (key: string, response: Response, started: number) => {
      await response.clone().arrayBuffer();
      wire.durations.push(performance.now() - started);
      if (response.ok && response.headers.get('idempotency-replayed') !== 'true') wire.fresh.set(key, (wire.fresh.get(key) ?? 0) + 1);
      if (response.ok && response.headers.get('idempotency-replayed') === 'true') wire.replayed++;
      if (
        response.status === 409 &&
        ((await response.clone().json()) as { errorCodeResponse?: string }).errorCodeResponse === 'IDEMPOTENCY_KEY_IN_PROGRESS'
      ) {
        wire.inProgress++;
      }
    };
    globalThis.fetch = async (input, init) => {
      const method = (init?.method ?? 'GET').toUpperCase();
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (!online) throw networkError();
      if (method !== 'PUT' || !url.startsWith(`${base}/bff/`)) return realFetch(input, init);
      const key = new Headers(init?.headers).get('idempotency-key') ?? '';
      wire.requests++;
      wire.keys.add(key);
      const roll = random();
      if (roll < FAIL) {
        wire.failed++;
        kick();
        throw networkError();
      }
      if (DELAY_MS > 0) await new Promise((r) => setTimeout(r, DELAY_MS));
      const started = performance.now();
      const sent = realFetch(input, init);
      if (roll < FAIL + LOST / 2) {
        // The connection drops while the server is still at work; the original carries on.
        wire.lostInFlight++;
        wire.background.push(sent.then((r) => record(key, r, started)).catch(() => undefined));
        await new Promise((r) => setImmediate(r));
        kick();
        throw networkError();
      }
      const response = await sent;
      await record(key, response, started);
      if (roll < FAIL + LOST) {
        wire.lostAfter++;
        kick();
        throw networkError();
      }
      return response;
    };

    // ---- offline: queue everything ---------------------------------------------------------
    const confirmed = new Map<string, number>();
    let onlineAt = 0;
    let settle: () => void = () => {};
    const finished = new Promise<void>((resolve) => (settle = resolve));
    online = false;
    outbox = new Outbox();
    unregister.push(
      outbox.onApplied((write) => {
        confirmed.set(write.id, performance.now() - onlineAt);
        if (confirmed.size === planned.length) settle();
      }),
    );
    // Start-up as in main.tsx: offline, so nothing goes out yet.
    outbox.start();
    const enqueued: OutboxWrite[] = [];
    const tq = performance.now();
    for (const w of planned) {
      const input = w.build(outbox.getSnapshot());
      const carried = versionOf(input);
      if (carried !== w.version) throw new Error(`${w.connectorId}: the app built version ${carried}, the chain needs ${w.version}`);
      const stored = await outbox.enqueue(input);
      w.key = stored.idempotencyKey;
      enqueued.push(stored);
    }
    console.log(
      `  [outbox] queued ${enqueued.length} writes on ${byConnector.size} connectors offline in ${((performance.now() - tq) / 1000).toFixed(1)} s`,
    );

    // ---- online: replay, wait until every write is confirmed or parked -------------------------
    const stalled = new Promise<void>((resolve) => {
      // Nothing can move any more: every open write is parked (failed / waiting for sign-in) or
      // queued behind a parked write of its connector.
      const check = () => {
        const snapshot = outbox!.getSnapshot();
        const parked = snapshot.filter((w) => w.state === 'failed' || w.state === 'waiting-for-sign-in');
        if (parked.length === 0) return;
        const blocked = new Set(parked.map((w) => w.scope));
        if (snapshot.every((w) => w.state === 'done' || blocked.has(w.scope))) resolve();
      };
      unregister.push(outbox!.subscribe(check));
    });
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, TIMEOUT_S * 1000).unref());
    online = true;
    onlineAt = performance.now();
    void outbox.replay({ skipBackoff: true });
    await Promise.race([finished, stalled, timeout]);
    const seconds = (performance.now() - onlineAt) / 1000;
    await Promise.all(wire.background);

    const snapshot = outbox.getSnapshot();
    const failedWrites: Record<string, number> = {};
    for (const w of snapshot)
      if (w.state === 'failed') failedWrites[w.lastError?.code ?? '?'] = (failedWrites[w.lastError?.code ?? '?'] ?? 0) + 1;
    const open = countWrites(snapshot).open;
    outbox.dispose();
    outbox = null;
    globalThis.fetch = realFetch;
    await server.close();
    serverClosed = true;

    // ---- verify on the server's database -------------------------------------------------------
    const handle = await createDb({ dataDir, databaseUrl: env.DATABASE_URL || undefined });
    let wrongFinalState = 0;
    let versionDeficit = 0;
    let versionSurplus = 0;
    let keysRecorded = 0;
    try {
      const keys = planned.map((w) => w.key!);
      const recorded = await handle.db
        .select({ key: idempotencyKeys.key, status: idempotencyKeys.status })
        .from(idempotencyKeys)
        .where(inArray(idempotencyKeys.key, keys));
      keysRecorded = new Set(recorded.filter((r) => r.status === 'done').map((r) => r.key)).size;
      const now = await handle.db
        .select()
        .from(connectors)
        .where(inArray(connectors.connectorId, [...byConnector.keys()]));
      for (const row of now) {
        const c = byConnector.get(row.connectorId)!;
        const delta = row.version - c.row.version;
        if (delta < c.writes) versionDeficit += c.writes - delta;
        if (delta > c.writes) versionSurplus += delta - c.writes;
        if (row.parkingLot !== c.lastLot || row.status !== c.lastStatus) wrongFinalState++;
      }
    } finally {
      await handle.close();
    }

    const unconfirmed = planned.filter((w) => !enqueued.some((e) => e.idempotencyKey === w.key && confirmed.has(e.id))).length;
    const neverApplied = planned.filter((w) => !wire.fresh.has(w.key!)).length;
    const lost = Math.max(unconfirmed, planned.length - keysRecorded, neverApplied, versionDeficit);
    const wireDuplicates = [...wire.fresh.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const duplicated = Math.max(wireDuplicates, versionSurplus);
    const confirmMs = stats([...confirmed.values()]);
    const result: OutboxReplayResult = {
      writes: planned.length,
      connectors: byConnector.size,
      seconds,
      writesPerSecond: confirmed.size / seconds,
      requests: wire.requests,
      retries: wire.requests - wire.keys.size,
      injectedFailed: wire.failed,
      injectedLostAfterAnswer: wire.lostAfter,
      injectedLostInFlight: wire.lostInFlight,
      replayedAnswers: wire.replayed,
      inProgressAnswers: wire.inProgress,
      failedWrites,
      lost,
      duplicated,
      wrongFinalState,
      requestMs: stats(wire.durations),
      confirmMs,
      ok: lost === 0 && duplicated === 0 && wrongFinalState === 0 && open === 0,
    };

    const rowsOut: [string, string][] = [
      ['writes queued offline', `${result.writes} on ${result.connectors} connectors`],
      ['replay time (online → all confirmed)', `${seconds.toFixed(2)} s${open > 0 ? ` (stopped with ${open} open)` : ''}`],
      ['writes/s', result.writesPerSecond.toFixed(1)],
      ['retry trigger', realBackoff ? "outbox's own backoff (2 s, 4 s, …)" : "immediate 'online' kick after each fault"],
      ['write requests on the wire', String(result.requests)],
      ['  retries (resends)', String(result.retries)],
      ['  injected: failed before the server', String(result.injectedFailed)],
      ['  injected: answer lost after it arrived', String(result.injectedLostAfterAnswer)],
      ['  injected: answer lost in flight', String(result.injectedLostInFlight)],
      ['  answered from the idempotency record', String(result.replayedAnswers)],
      ['  409 key in progress', String(result.inProgressAnswers)],
      [
        'request round trip median / p95 / max',
        `${result.requestMs.median.toFixed(1)} / ${result.requestMs.p95.toFixed(1)} / ${result.requestMs.max.toFixed(1)} ms`,
      ],
      [
        'confirmed after online median / p95 / max',
        `${(confirmMs.median / 1000).toFixed(2)} / ${(confirmMs.p95 / 1000).toFixed(2)} / ${(confirmMs.max / 1000).toFixed(2)} s`,
      ],
      ['writes parked as failed', Object.keys(failedWrites).length ? JSON.stringify(failedWrites) : '0'],
      ['idempotency keys recorded on the server', `${keysRecorded} / ${planned.length}`],
      ['connectors with a wrong final state', String(wrongFinalState)],
      ['LOST', String(lost)],
      ['DUPLICATED', String(duplicated)],
    ];
    const width = Math.max(...rowsOut.map(([k]) => k.length));
    console.log(
      `\nOutbox replay — node ${process.version}, ${os.cpus().length} CPUs, ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, seed size small, ${DELAY_MS} ms added latency`,
    );
    for (const [k, v] of rowsOut) console.log(`${k.padEnd(width)} | ${v}`);
    console.log(result.ok ? 'OK: every write applied exactly once.' : 'FAILED: writes were lost, duplicated or left open.');
    return result;
  } finally {
    globalThis.fetch = realFetch;
    outbox?.dispose();
    for (const u of unregister) u();
    clearTokens('logout');
    if (!serverClosed) await server.close();
    if (process.env.BENCH_KEEP !== '1') rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = await runOutboxReplayBench();
  if (!result.ok) process.exitCode = 1;
}
