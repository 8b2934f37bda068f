import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testEnv, type Env } from '../env';
import { startServer, type RunningServer } from '../server';

/** The real Node server (as `npm start` runs it): what its sockets do when clients misbehave. */
let server: RunningServer;
const logs: string[] = [];
const envOverrides: Partial<Env> = {};

beforeAll(async () => {
  server = await startServer(
    testEnv({ DATA_DIR: 'memory://', SEED: 'none', PORT: 0, DATABASE_URL: process.env.DATABASE_URL, ...envOverrides }),
    {
      log: (m) => logs.push(m),
    },
  );
}, 120_000);
afterAll(() => server?.close());

async function open(): Promise<Socket> {
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a client that aborts', () => {
  it('leaves at most one short line per aborted request, and none with a stack', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      logs.length = 0;
      const aborts = 10;
      for (let i = 0; i < aborts; i++) {
        const socket = await open();
        socket.write(
          'POST /user-service/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"username":',
        );
        await pause(50);
        socket.resetAndDestroy();
      }
      await pause(500);
      const lines = [...logs, ...consoleError.mock.calls.map((args) => args.map(String).join(' '))].flatMap((l) => l.split('\n'));
      expect(lines.length).toBeLessThanOrEqual(aborts);
      expect(lines.filter((l) => /^\s+at /.test(l) || /Unhandled/.test(l))).toEqual([]);
    } finally {
      consoleError.mockRestore();
    }
  });
});
