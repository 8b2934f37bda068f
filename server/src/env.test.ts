import { describe, expect, it } from 'vitest';
import { isLoopbackHost, loadEnv } from './env';

/** Links in mails must not point recipients at their own machine: PUBLIC_URL is needed unless the server listens on loopback alone. */

const secret = { JWT_SECRET: 'x'.repeat(40) };

describe('loadEnv: HOST and PUBLIC_URL', () => {
  it('refuses to start on any other host without PUBLIC_URL, with a clear message', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'cockpit.example.org']) {
      expect(() => loadEnv({ ...secret, HOST })).toThrow(/PUBLIC_URL: must be set when the server listens on/);
    }
  });

  it('starts on loopback without PUBLIC_URL (the default host), and anywhere with it', () => {
    const local = loadEnv({ ...secret });
    expect(local.HOST).toBe('127.0.0.1');
    expect(local.PUBLIC_URL).toBe('http://localhost:8080');
    for (const HOST of ['localhost', '127.0.0.1', '::1', '[::1]', '127.0.0.2']) expect(loadEnv({ ...secret, HOST }).HOST).toBe(HOST);
    const open = loadEnv({ ...secret, HOST: '0.0.0.0', PUBLIC_URL: 'https://cockpit.example.org/' });
    expect(open.PUBLIC_URL).toBe('https://cockpit.example.org');
  });

  it('counts only this machine as loopback', () => {
    expect(isLoopbackHost('LOCALHOST')).toBe(true);
    expect(isLoopbackHost('localhost.example.org')).toBe(false);
    expect(isLoopbackHost('127.0.0.1.example.org')).toBe(false);
    expect(isLoopbackHost('::')).toBe(false);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
  });
});
