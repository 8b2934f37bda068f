/**
 * `npx tsx --expose-gc bench/idle-memory.ts`: the idle server's memory after seeding, never part of
 * the tests. Starts the real server (PGlite in its worker thread) with SEED=demo on a fresh data
 * directory (BENCH_DATA_DIR to reuse one, 'memory://' for none on disk; a first start on disk seeds
 * in a child process, see server/src/seed/child-process.ts), waits IDLE_WAIT_MS (10 s), collects
 * garbage in both threads and prints the process's memory (`process.memoryUsage()`, RSS split
 * into anonymous memory and mapped files from /proc/self/status) and the PGlite worker thread's
 * share (its heap and buffers; a thread has no RSS of its own).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../server/src/env';
import { startServer } from '../server/src/server';

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const status = () => readFileSync('/proc/self/status', 'utf8');

const fresh = !process.env.BENCH_DATA_DIR;
const dataDir = process.env.BENCH_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'cpo-idle-'));
const env = loadEnv({
  ...process.env,
  DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
  DATA_DIR: dataDir,
  PORT: '0',
  SEED: 'demo',
  STATIC_DIR: path.join(os.tmpdir(), 'cpo-idle-no-static'),
  JWT_SECRET: randomBytes(48).toString('base64url'),
});
const server = await startServer(env, { log: (m) => console.log(`  ${m}`) });
try {
  await new Promise((r) => setTimeout(r, Number(process.env.IDLE_WAIT_MS ?? 10_000)));
  // The worker's garbage first (its 'memory' answer collects it with --expose-gc), then the main
  // thread's: what an idle V8 gives back by itself after a while, so runs compare.
  const w = await server.workerMemory?.();
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  const kb = (field: string) => Number(status().match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN) * 1024;
  console.log(
    `process: rss ${mb(m.rss)} (anonymous ${mb(kb('RssAnon'))}, files ${mb(kb('RssFile'))}: the node binary, shared), main thread heap ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}`,
  );
  if (w)
    console.log(
      `PGlite worker thread: heap ${mb(w.heapUsed)} of ${mb(w.heapTotal)}, external ${mb(w.external)} (PGlite's WASM memory), arrayBuffers ${mb(w.arrayBuffers)}`,
    );
} finally {
  await server.close();
  if (fresh && dataDir !== 'memory://') rmSync(dataDir, { recursive: true, force: true });
}
