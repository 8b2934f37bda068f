import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSmtpPeer, type ReceivedMail } from '../../server/src/test/smtp-peer';

/**
 * The SMTP peer of the whole e2e run (playwright.config.ts, globalSetup): every mail the server
 * sends arrives at a real SMTP server, so none waits in the server's outbox to be retried (and
 * logged) for the rest of the run. Each mail is kept as a JSON file in E2E_MAIL_DIR, where a test
 * in a worker process finds it (`waitForMail`).
 */
export default async function startMailSink(): Promise<() => Promise<void>> {
  const dir = process.env.E2E_MAIL_DIR!;
  mkdirSync(dir, { recursive: true });
  let n = 0;
  const peer = await startSmtpPeer(Number(process.env.E2E_SMTP_PORT), (mail) => {
    // Written whole under another name first, so a reader never sees half a file.
    const name = join(dir, `${String(++n).padStart(6, '0')}.json`);
    writeFileSync(`${name}.part`, JSON.stringify(mail));
    renameSync(`${name}.part`, name);
  });
  return () => peer.close();
}

/** The first mail of the run (already here or still to come) that `match` accepts. */
export async function waitForMail(match: (mail: ReceivedMail) => boolean, timeoutMs = 30_000): Promise<ReceivedMail> {
  const dir = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    for (const file of files) {
      const mail = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ReceivedMail;
      if (match(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms (got ${files.length})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
