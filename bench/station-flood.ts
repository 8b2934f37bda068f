/**
 * `BENCH_ONLY=flood npm run bench` (also `npx tsx bench/station-flood.ts`): one station floods
 * BENCH_FLOOD_FRAMES (default 20,000) Heartbeats over one authenticated OCPP socket, sent without
 * waiting for answers (a raw `ws` client, 500 frames per turn of its event loop), while the demo
 * operator account (another tenant than the station's) reads its station list in a loop. Prints
 * that tenant's list read p50/p99 idle (before) and during the flood (from its first frame until the
 * socket closed or every frame was answered, and one second more), how the flood ended (answers,
 * CALLERRORs, close code), and the server's RSS before, at its peak during, and 5 s after.
 * The server runs as a process of its own (`node --import tsx server/src/main.ts`, as `npm start`)
 * on PGlite in a temporary directory, or on BENCH_DATABASE_URL; RSS is read from /proc (Linux).
 * Never part of the tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { demoStationPassword } from '../server/src/seed/ocpp';
import { benchEnv, signIn } from './bench-kit';

const FRAMES = Number(process.env.BENCH_FLOOD_FRAMES ?? 20_000);
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

const rssKb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

async function listRows(base: string, token: string): Promise<{ cpId: string }[]> {
  const res = await fetch(`${base}/bff/connectors/get-by-cpo?page=0&size=200`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`list: ${res.status}`);
  return ((await res.json()) as { data: { response: { cpId: string }[] } }).data.response;
}

/** A socket of a station not among the operator account's, with the demo password. */
async function floodSocket(base: string, candidates: string[]): Promise<{ ws: WebSocket; cpId: string }> {
  for (const cpId of candidates) {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ocpp/${cpId}`, 'ocpp1.6', {
      headers: { authorization: `Basic ${Buffer.from(`${cpId}:${demoStationPassword}`).toString('base64')}` },
    });
    const opened = await new Promise<boolean>((resolve) => {
      ws.once('open', () => resolve(true));
      ws.once('error', () => resolve(false));
    });
    if (opened) return { ws, cpId };
  }
  throw new Error('no station of another operator accepted the demo password');
}

export async function runStationFloodBench(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cpo-flood-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: benchEnv(dataDir, { SIMULATED_STATIONS: '0', HOST: '127.0.0.1' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logLines: string[] = [];
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        logLines.push(line);
        const m = /listening on (http:\/\/\S+)/.exec(line);
        if (m) resolve(m[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
  });
  try {
    const operator = (await signIn(base, 'operator')).access_token;
    const admin = (await signIn(base, 'admin')).access_token;
    const own = new Set((await listRows(base, operator)).map((r) => r.cpId));
    const others = [...new Set((await listRows(base, admin)).map((r) => r.cpId))].filter((id) => !own.has(id));

    const read = async () => {
      const t0 = performance.now();
      await listRows(base, operator);
      return performance.now() - t0;
    };
    const idle: number[] = [];
    for (let i = 0; i < 50; i++) idle.push(await read());
    const rssBefore = rssKb(child.pid!);

    const { ws, cpId } = await floodSocket(base, others);
    let results = 0;
    let callErrors = 0;
    ws.on('message', (data: Buffer) => {
      if (data[1] === 0x33) results++;
      else if (data[1] === 0x34) callErrors++;
    });
    let closeCode: number | undefined;
    const closed = new Promise<void>((resolve) =>
      ws.on('close', (code) => {
        closeCode = code;
        resolve();
      }),
    );
    const logBefore = logLines.length;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(child.pid!))), 100);
    const t0 = performance.now();
    let sent = 0;
    const flood = (async () => {
      while (sent < FRAMES && ws.readyState === WebSocket.OPEN) {
        for (let k = 0; k < 500 && sent < FRAMES; k++, sent++) ws.send(`[2,"h${sent}","Heartbeat",{}]`);
        await new Promise((r) => setImmediate(r));
      }
    })();
    const during: number[] = [];
    let done = false;
    const reading = (async () => {
      while (!done) during.push(await read());
    })();
    await flood;
    await Promise.race([closed, new Promise<void>((r) => setTimeout(r, 60_000))]);
    while (closeCode === undefined && results + callErrors < sent && performance.now() - t0 < 120_000)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    done = true;
    await reading;
    const floodMs = performance.now() - t0;
    clearInterval(sampler);
    ws.terminate();
    await new Promise((r) => setTimeout(r, 5000));
    const rssAfter = rssKb(child.pid!);
    const floodLines = logLines.slice(logBefore).filter((l) => l.includes(cpId));

    console.log(`\nStation flood: ${FRAMES} Heartbeats on one socket (station ${cpId}), another tenant's station list`);
    console.log(`  list read idle:   p50 ${pct(idle, 50).toFixed(0)} ms, p99 ${pct(idle, 99).toFixed(0)} ms (${idle.length} reads)`);
    console.log(
      `  list read flood:  p50 ${pct(during, 50).toFixed(0)} ms, p99 ${pct(during, 99).toFixed(0)} ms (${during.length} reads in ${(floodMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  flood: ${sent} frames sent, ${results} answered, ${callErrors} CALLERRORs, close ${closeCode ?? 'none'}, ${floodLines.length} log line(s)`,
    );
    console.log(`  server RSS: before ${mb(rssBefore)}, peak during ${mb(peak)}, 5 s after ${mb(rssAfter)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runStationFloodBench();
