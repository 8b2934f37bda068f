import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { testEnv } from '../env';
import { demoAccounts } from '../seed/seed';
import { startServer } from '../server';

/**
 * The body limit's 413 on the real server (Node's HTTP server, a real socket). The client is Node's
 * fetch in a process of its own, as a browser or an app is: in the server's own thread its reading
 * and the server's closing took turns, and the reset that loses the answer never came.
 */
const LIMIT = 256 * 1024;

/** Sends each body (`size` bytes, `slow`: without Content-Length, 32 KB every 15 ms) and prints what fetch saw. */
const client = `
const [base, token, plan] = process.argv.slice(1);
const outcomes = [];
for (const { size, slow } of JSON.parse(plan)) {
  let body;
  if (slow) {
    let sent = 0;
    const chunk = new Uint8Array(32 * 1024).fill(65);
    body = new ReadableStream({
      async pull(controller) {
        if (sent >= size) return controller.close();
        await new Promise((r) => setTimeout(r, 15));
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
  } else {
    body = new FormData();
    body.set('file', new Blob([new Uint8Array(size).fill(65)]), 'stationen.csv');
  }
  try {
    const res = await fetch(base + '/bff/connectors/upload?csvSeparator=%3B&dryRun=true', {
      method: 'POST', headers: { authorization: 'Bearer ' + token }, body, duplex: 'half',
    });
    outcomes.push(res.status + ' ' + (await res.json()).errorCodeResponse);
  } catch (err) {
    outcomes.push(String(err.cause?.code ?? err.cause ?? err));
  }
}
console.log(JSON.stringify(outcomes));
`;

function runClient(base: string, token: string, plan: { size: number; slow?: boolean }[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', client, base, token, JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(JSON.parse(out) as string[]));
  });
}

describe('a body over the limit, on the real server', () => {
  it("is answered 413 PAYLOAD_TOO_LARGE, which Node's fetch reads (not EPIPE or ECONNRESET)", async () => {
    const server = await startServer(
      testEnv({ DATA_DIR: 'memory://', SEED: 'small', PORT: 0, DATABASE_URL: process.env.DATABASE_URL, UPLOAD_BODY_LIMIT_BYTES: LIMIT }),
      { log: () => {} },
    );
    try {
      const login = await fetch(`${server.url}/user-service/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: demoAccounts.admin.email, password: demoAccounts.admin.password, origin: 'dashboard' }),
      });
      const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      // By Content-Length (refused before a byte is kept), at loopback speed; then streamed slowly
      // without one (refused mid-body, the client still sending for a second after the answer).
      const plan = [
        ...Array.from({ length: 4 }, () => ({ size: 8 * 1024 * 1024 })),
        { size: 24 * 1024 * 1024 },
        { size: 2 * 1024 * 1024, slow: true },
      ];
      expect(await runClient(server.url, token, plan)).toEqual(plan.map(() => '413 PAYLOAD_TOO_LARGE'));
    } finally {
      await server.close();
    }
  }, 60_000);
});
