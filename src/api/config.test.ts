import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRuntimeConfig, type RuntimeConfig } from '../../contract/config';
import { getRuntimeConfig, getRuntimeConfigSource, getServiceBase, loadRuntimeConfig, resetRuntimeConfig } from './config';

const remote: RuntimeConfig = {
  services: {
    userService: 'https://auth.example.com/user-service',
    bff: 'https://api.example.com/bff',
    contractManagement: 'https://api.example.com/cm',
    bookingService: 'https://api.example.com/bookings',
  },
  csvSeparator: ',',
  redoSepaIntervalMinutes: 30,
  version: '3.0.1',
  links: { imprint: 'https://example.com/impressum', privacy: 'https://example.com/datenschutz', contact: '/support' },
};

beforeEach(() => {
  localStorage.clear();
  resetRuntimeConfig();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('runtime config', () => {
  it('loads /config.json once and exposes the service bases', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response(JSON.stringify(remote), { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);

    const [a, b] = await Promise.all([loadRuntimeConfig(), loadRuntimeConfig()]);
    expect(a).toEqual(remote);
    expect(b).toBe(a);
    await expect(getServiceBase('bookingService')).resolves.toBe('https://api.example.com/bookings');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(String(fetchMock.mock.calls[0]).startsWith('/config.json')).toBe(true);
    expect(getRuntimeConfigSource()).toBe('network');
  });

  it('falls back to the defaults when offline and nothing was stored', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(loadRuntimeConfig()).resolves.toEqual(defaultRuntimeConfig);
    expect(getRuntimeConfigSource()).toBe('default');
  });

  it('falls back to the last good config when the network fails later', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify(remote)))),
    );
    await loadRuntimeConfig();
    resetRuntimeConfig();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    await expect(loadRuntimeConfig()).resolves.toEqual(remote);
    expect(getRuntimeConfigSource()).toBe('stored');
  });

  it('rejects an invalid config', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify({ services: {} })))),
    );
    await expect(loadRuntimeConfig()).resolves.toEqual(defaultRuntimeConfig);
  });

  it('tries again after coming back online when it had to fall back', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    await loadRuntimeConfig();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(JSON.stringify(remote)))),
    );
    window.dispatchEvent(new Event('online'));
    await expect(loadRuntimeConfig()).resolves.toEqual(remote);
    expect(getRuntimeConfig()).toEqual(remote);
  });
});
