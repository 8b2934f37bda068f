/**
 * `npm run bench:zip` (also `BENCH_ONLY=zip npm run bench`): `POST /bookings/download-bill` for a
 * zip of 500 bills (BENCH_ZIP_BILLS) against the real server in a child process (as `npm start`
 * runs it), each bill with a 20-request charging history. Twice: first every PDF is drawn (with its
 * Factur-X XML) and kept, then all are read from `files`. Prints the time, the zip's size and
 * entries, and the server's peak RSS above its idle RSS (goal: at most 100 MB). The client reads
 * the zip as a stream and keeps none of it. Never part of the tests.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { asc, eq } from 'drizzle-orm';
import { createDb } from '../server/src/db/client';
import { contracts } from '../server/src/db/schema/contracts';
import { operators } from '../server/src/db/schema/operators';
import { insertTestBill, type TestBill } from '../server/src/test/bill-fixtures';
import { benchEnv, signIn } from './bench-kit';

const BILLS = Number(process.env.BENCH_ZIP_BILLS ?? 500);
const REQUESTS_PER_BILL = 20;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The server as `npm start` runs it, in a child process; its base URL once it listens. */
async function startServerProcess(env: Record<string, string | undefined>): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  child.stdout!.resume();
  return { child, base };
}

async function stop(child: ChildProcess) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** A process's resident memory in bytes (Linux: /proc/<pid>/status; 0 where it is missing). */
function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** BILLS bills of the first operator's first contract, one month each, written straight into the stopped server's database. */
async function writeBills(env: Record<string, string | undefined>): Promise<TestBill[]> {
  const handle = await createDb({ databaseUrl: env.DATABASE_URL || undefined, dataDir: env.DATA_DIR! });
  try {
    const [op] = await handle.db.select({ cpoId: operators.cpoId }).from(operators).orderBy(asc(operators.cpoId)).limit(1);
    await handle.db.update(operators).set({ isChargingHistoryIncluded: true }).where(eq(operators.cpoId, op!.cpoId));
    const [c] = await handle.db
      .select({ key: contracts.contractKey })
      .from(contracts)
      .where(eq(contracts.cpoId, op!.cpoId))
      .orderBy(asc(contracts.contractKey))
      .limit(1);
    const bills: TestBill[] = [];
    for (let i = 0; i < BILLS; i++) {
      const year = 1980 + Math.floor(i / 12);
      const month = String((i % 12) + 1).padStart(2, '0');
      bills.push(
        await insertTestBill(handle.db, c!.key, { start: `${year}-${month}-01`, end: `${year}-${month}-28`, requests: REQUESTS_PER_BILL }),
      );
    }
    return bills;
  } finally {
    await handle.close();
  }
}

async function zipRound(label: string, base: string, token: string, pid: number, bills: TestBill[], file: string) {
  const idle = rssOf(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  const started = performance.now();
  const res = await fetch(`${base}/booking-service/bookings/download-bill`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ billPdfDtoList: bills.map((b) => ({ billId: b.billId, billNumber: b.billNumber })) }),
  });
  if (res.status !== 200) throw new Error(`${label}: ${res.status} ${await res.text()}`);
  const firstByte = performance.now() - started;
  await pipeline(Readable.fromWeb(res.body as WebReadableStream), createWriteStream(file));
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  const entries = /(\d+) files?\s*$/.exec(execFileSync('unzip', ['-l', file], { encoding: 'utf8' }).trim())?.[1];
  const size = readFileSync(file).length;
  console.log(
    `  ${label.padEnd(22)} ${(ms / 1000).toFixed(1).padStart(6)} s (first byte ${firstByte.toFixed(0)} ms, ${(ms / bills.length).toFixed(0)} ms a bill)  ` +
      `zip ${mb(size)}, ${entries} PDFs  server RSS ${mb(idle)} idle, peak ${mb(peak)}: +${mb(peak - idle)} (goal ≤ 100 MB)`,
  );
}

export async function runBillsZipBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-zip-bench-'));
  // As `npm run serve` sets it: two malloc arenas, not eight per core (bench/README.md).
  // The zip alone: no simulated stations and no collection round (its first comes a minute after
  // the start, in the middle of the zip, and collects the demo's sent STRIPE_SEPA bills) beside it.
  const env = benchEnv(dataDir, {
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
    SIMULATED_STATIONS: '0',
    COLLECTION_INTERVAL_SECONDS: '86400',
  });
  try {
    // The first start seeds; the bills are written while no server holds the database.
    await stop((await startServerProcess(env)).child);
    const bills = await writeBills(env);
    const { child, base } = await startServerProcess(env);
    try {
      const token = (await signIn(base, 'admin')).access_token;
      console.log(`Zip of ${bills.length} bills (${REQUESTS_PER_BILL} charging requests each), server pid ${child.pid}`);
      const file = path.join(dataDir, 'Rechnungen.zip');
      await zipRound('PDFs drawn and kept', base, token, child.pid!, bills, file);
      await zipRound('PDFs read from files', base, token, child.pid!, bills, file);
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBillsZipBench();
