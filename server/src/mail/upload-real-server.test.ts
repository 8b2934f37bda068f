import { describe, expect, it } from 'vitest';
import { testEnv } from '../env';
import { demoAccounts } from '../seed/seed';
import { startServer } from '../server';

/**
 * The real server (PGlite in its worker thread, as `npm start` runs it), in a file of its own: a
 * harness in the same module graph would share the process's caches of callers by session.
 */
const payload = (attachments: Uint8Array) => ({
  subject: 'Ladestation defekt',
  body: 'Siehe Anhang.',
  senderEmailAddress: demoAccounts.operator.email,
  senderFullName: 'Olaf Betreiber',
  attachments: [...attachments],
  attachmentName: 'anhang.pdf',
});

/** `%PDF-` and 3 MB of filler: a header pdf-lib believes, and a body it searches for 14 s. */
const fakePdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024 - 64, 'A')]);

/**
 * The check's time limit. A held worker would make a list wait for the whole check (one wait of
 * ~CHECK_MS, then the upload answers); a free one answers many lists meanwhile, each well within half
 * of it even on a machine busy with the whole test suite (a 1 s bound failed there at 1.9 s).
 */
const CHECK_MS = 4000;

describe('on the real server', () => {
  it("answers another tenant's list while a fake PDF is checked (the PGlite worker is not held)", async () => {
    const server = await startServer(
      testEnv({ DATA_DIR: 'memory://', SEED: 'small', PORT: 0, DATABASE_URL: process.env.DATABASE_URL, UPLOAD_CHECK_TIMEOUT_MS: CHECK_MS }),
      {
        log: () => {},
      },
    );
    try {
      const login = async (account: 'operator' | 'partner') => {
        const res = await fetch(`${server.url}/user-service/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: demoAccounts[account].email, password: demoAccounts[account].password, origin: 'dashboard' }),
        });
        const json = (await res.json()) as { data: { access_token: string } };
        if (res.status !== 200) throw new Error(`login ${account}: ${res.status} ${JSON.stringify(json)}`);
        return json.data.access_token;
      };
      const [op, other] = [await login('operator'), await login('partner')];
      let done = false;
      const upload = fetch(`${server.url}/bff/mail/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${op}` },
        body: JSON.stringify(payload(fakePdf())),
      }).finally(() => (done = true));
      const waits: number[] = [];
      await new Promise((r) => setTimeout(r, 200));
      while (!done) {
        const t0 = performance.now();
        const list = await fetch(`${server.url}/bff/cpos`, { headers: { authorization: `Bearer ${other}` } });
        await list.arrayBuffer();
        expect(list.status).toBe(200);
        waits.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await upload;
      expect(`${res.status} ${await res.text()}`).toMatch(/^422 .*UPLOAD_NOT_READABLE/);
      expect(waits.length).toBeGreaterThan(5);
      expect(Math.max(...waits)).toBeLessThan(CHECK_MS / 2);
    } finally {
      await server.close();
    }
  }, 120_000);
});
