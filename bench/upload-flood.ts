/**
 * `npm run bench:uploads` (also `BENCH_ONLY=uploads npm run bench`): hostile uploads against the
 * real server while another tenant works (issue 22). For BENCH_SECONDS (default 30): 4 clients send
 * 3 MB fake PDFs ('%PDF-' and filler) as contract PDFs (create-contract, as the operator), 4 send a
 * ~1 MB PNG that declares 16000×16000 pixels as the support mail's attachment (as the partner), and
 * the admin pages through the location list one request after the other. Prints the admin's
 * latencies (median, p95, p99, max; the issue's goal: p99 under 200 ms), the attackers' answers by
 * status, and the process's peak RSS (server and bench share the process; goal under 600 MB).
 * Never part of the tests.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDeflate } from 'node:zlib';
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { loadEnv } from '../server/src/env';
import { operators } from '../server/src/db/schema/operators';
import { connectors } from '../server/src/db/schema/stations';
import { demoAccounts } from '../server/src/seed/seed';
import { startServer } from '../server/src/server';

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

async function signIn(base: string, account: 'admin' | 'operator' | 'partner'): Promise<string> {
  const { email, password } = demoAccounts[account];
  const res = await fetch(`${base}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, origin: 'dashboard' }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${account} failed: ${res.status}`);
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-upload-bench-'));
  const env = loadEnv({
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    DATA_DIR: dataDir,
    PORT: '0',
    SEED: 'small',
    STATIC_DIR: path.join(dataDir, 'no-static'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ACCESS_TOKEN_TTL_SECONDS: '3600',
  });
  const server = await startServer(env, { log: () => {} });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const [admin, operator, partner] = [await signIn(base, 'admin'), await signIn(base, 'operator'), await signIn(base, 'partner')];
    const cpos = (await (await fetch(`${base}/bff/cpos?page=0&size=100`, { headers: { authorization: `Bearer ${operator}` } })).json()) as {
      data: { response: { cpoId: string }[] };
    };
    const cpoId = cpos.data.response[0]!.cpoId;
    const [op] = await server.db.select({ manual: operators.createManualEndCustomerId }).from(operators).where(eq(operators.cpoId, cpoId));
    const [lot] = await server.db
      .select({ locationId: connectors.locationId, lot: connectors.parkingLot })
      .from(connectors)
      .where(and(eq(connectors.cpoId, cpoId), isNotNull(connectors.parkingLot), eq(connectors.removed, false)))
      .orderBy(asc(connectors.connectorId))
      .limit(1);

    const fakePdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024 - 64, 0x20)]).toString('base64');
    const bomb = [...(await pngBomb(16000))];
    console.log(
      `PNG bomb: ${(bomb.length / 1024).toFixed(0)} KB declaring 16000×16000 (${((16000 * 16000 * 4) / 2 ** 30).toFixed(2)} GB decoded)`,
    );

    let serial = 0;
    const contractBody = () => {
      serial++;
      return JSON.stringify({
        ...(op!.manual ? { endCustomerId: `BENCH${serial}` } : {}),
        cpoId,
        userType: 'REGULAR',
        firstName: 'Bench',
        lastName: `Upload${serial}`,
        email: `bench.${serial}@example.de`,
        contractAddress: { street: 'Hauptstraße 1', zipCode: '10115', city: 'Berlin' },
        locationId: lot!.locationId,
        parkingLotNumbers: [lot!.lot],
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
    let peakRss = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
    const latencies: number[] = [];
    const victim = async () => {
      for (let page = 0; performance.now() < until; page = (page + 1) % 3) {
        const t0 = performance.now();
        const res = await fetch(`${base}/bff/locations/get-by-cpo?page=${page}&size=10`, { headers: { authorization: `Bearer ${admin}` } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (res.status !== 200) count('victim', res.status);
      }
    };
    const idleRss = process.memoryUsage().rss;
    await Promise.all([...Array.from({ length: 4 }, () => attacker('pdf')), ...Array.from({ length: 4 }, () => attacker('png')), victim()]);
    clearInterval(sampler);
    latencies.sort((a, b) => a - b);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `other tenant's list, ${latencies.length} requests in ${SECONDS} s: median ${ms(pct(latencies, 50))}, p95 ${ms(pct(latencies, 95))}, p99 ${ms(pct(latencies, 99))}, max ${ms(latencies.at(-1) ?? NaN)} (goal: p99 < 200 ms)`,
    );
    console.log(`attackers' answers: ${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}`);
    console.log(`RSS: ${(idleRss / 2 ** 20).toFixed(0)} MB before, peak ${(peakRss / 2 ** 20).toFixed(0)} MB (goal < 600 MB)`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
