/**
 * `npm run bench:uploads` (also `BENCH_ONLY=uploads npm run bench`): hostile uploads against the
 * real server while another tenant works (issue 22). For BENCH_SECONDS (default 30): 4 clients send
 * 3 MB fake PDFs ('%PDF-' and filler) as contract PDFs (create-contract, as the operator), 4 send a
 * ~1 MB PNG that declares 16000×16000 pixels as the support mail's attachment (as the partner), and
 * the admin pages through the location list one request after the other. Prints the admin's
 * latencies (median, p95, p99, max; the issue's goal: p99 under 200 ms), the attackers' answers by
 * status, and the server's peak RSS (goal under 600 MB).
 * The server runs as `npm start` runs it, in a process of its own (its RSS is its own, the
 * attackers' 4 MB bodies are not on its event loop); the admin's client runs in a worker thread
 * (`load-worker.mjs`), so the attackers' client work does not delay its timings either.
 * Never part of the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createDeflate } from 'node:zlib';
import { benchEnv, signIn } from './bench-kit';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);

/** CRC-32 of PNG chunks. */
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A valid PNG of side×side black RGBA pixels: a few MB on the wire, side² × 4 bytes once decoded. */
async function pngBomb(side: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (b: Buffer) => parts.push(b));
  const row = Buffer.alloc(1 + side * 4);
  for (let y = 0; y < side; y++) if (!deflate.write(row)) await new Promise((r) => deflate.once('drain', r));
  await new Promise((r) => deflate.end(r));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The server as `npm start` runs it (`server/src/main.ts`), in a child process; its base URL once it listens. */
async function startServerProcess(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    // As `npm run serve` sets it: two malloc arenas, not eight per core (bench/README.md).
    env: benchEnv(dataDir, { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/** A process's resident memory in bytes (Linux: /proc/<pid>/status; 0 where it is missing). */
function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The other tenant: one GET after the other for `seconds`, from a worker thread (load-worker.mjs). */
async function victimLatencies(url: string, token: string, seconds: number): Promise<{ latencies: number[]; errors: number }> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { execArgv: [] });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.postMessage({ url, headers: { authorization: `Bearer ${token}` }, count: Infinity, concurrency: 1, seconds });
    });
  } finally {
    await worker.terminate();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-upload-bench-'));
  const { child, base } = await startServerProcess(dataDir);
  try {
    const [admin, operator, partner] = [
      (await signIn(base, 'admin')).access_token,
      (await signIn(base, 'operator')).access_token,
      (await signIn(base, 'partner')).access_token,
    ];
    const auth = { authorization: `Bearer ${operator}` };
    const cpos = (await (await fetch(`${base}/bff/cpos?page=0&size=1`, { headers: auth })).json()) as {
      data: { response: { cpoId: string }[] };
    };
    const cpoId = cpos.data.response[0]!.cpoId;
    const locations = (await (await fetch(`${base}/bff/locations/get-by-cpo?page=0&size=1`, { headers: auth })).json()) as {
      data: { response: { locationId: string }[] };
    };
    const locationId = locations.data.response[0]!.locationId;

    const fakePdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024 - 64, 0x20)]).toString('base64');
    const bomb = [...(await pngBomb(16000))];
    console.log(
      `PNG bomb: ${(bomb.length / 1024).toFixed(0)} KB declaring 16000×16000 (${((16000 * 16000 * 4) / 2 ** 30).toFixed(2)} GB decoded)`,
    );

    let serial = 0;
    // Everything but the file is a plausible contract: the upload check refuses the file first.
    const contractBody = () => {
      serial++;
      return JSON.stringify({
        endCustomerId: `BENCH${serial}`,
        cpoId,
        userType: 'REGULAR',
        firstName: 'Bench',
        lastName: `Upload${serial}`,
        email: `bench.${serial}@example.de`,
        contractAddress: { street: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' },
        locationId,
        parkingLotNumbers: ['P1'],
        authType: 'APP',
        billingType: 'WITHOUT_BILLING',
        contractInfo: { startDate: '2026-12-01', contractPDF: 'vertrag.pdf', contractPdfInByteArrayForm: fakePdf },
      });
    };
    const mailBody = JSON.stringify({
      subject: 'Bench',
      body: 'PNG',
      attachments: bomb,
      attachmentName: 'bild.png',
      senderEmailAddress: 'bench@example.de',
      senderFullName: 'Bench',
    });

    const statuses = new Map<string, number>();
    const count = (kind: string, status: number | string) =>
      statuses.set(`${kind} ${status}`, (statuses.get(`${kind} ${status}`) ?? 0) + 1);
    const until = performance.now() + SECONDS * 1000;
    const attacker = async (kind: 'pdf' | 'png') => {
      while (performance.now() < until) {
        const res = await fetch(kind === 'pdf' ? `${base}/contract-management/create-contract` : `${base}/bff/mail/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${kind === 'pdf' ? operator : partner}` },
          body: kind === 'pdf' ? contractBody() : mailBody,
        }).catch(() => undefined);
        count(kind, res?.status ?? 'error');
        await res?.arrayBuffer().catch(() => undefined);
      }
    };
    const idleRss = rssOf(child.pid!);
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(child.pid!))), 100);
    const [victim] = await Promise.all([
      victimLatencies(`${base}/bff/locations/get-by-cpo?page=0&size=10`, admin, SECONDS),
      ...Array.from({ length: 4 }, () => attacker('pdf')),
      ...Array.from({ length: 4 }, () => attacker('png')),
    ]);
    clearInterval(sampler);
    const latencies = victim.latencies.sort((a, b) => a - b);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `other tenant's list, ${latencies.length} requests in ${SECONDS} s (${victim.errors} failed): median ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}, p99 ${ms(pct(latencies, 99))}, max ${ms(latencies.at(-1) ?? NaN)} (goal: p99 < 200 ms)`,
    );
    console.log(`attackers' answers: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    console.log(`server RSS: ${(idleRss / 2 ** 20).toFixed(0)} MB before, peak ${(peakRss / 2 ** 20).toFixed(0)} MB (goal < 600 MB)`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
