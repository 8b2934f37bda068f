import type { RuntimeConfig } from '../../contract/config';
import { answerCheck, integer, object, optional, string, where } from './answer-check';

/*
 * contract/config.ts's runtimeConfigSchema and defaultRuntimeConfig, spelled out: this file is on the
 * first route, which leaves zod out (answer-check.ts); answer-check.test.ts holds both to the contract.
 */
export const runtimeConfigAnswer = answerCheck<RuntimeConfig>(
  object({
    services: object({ userService: string, bff: string, contractManagement: string, bookingService: string }),
    csvSeparator: where(string, (s) => s.length === 1, 'one character'),
    redoSepaIntervalMinutes: where(integer, (n) => n > 0, 'a positive integer'),
    version: string,
    /** Footer links (spec 1 §1): each operator company has its own legal pages. */
    links: optional(object({ imprint: string, privacy: string, contact: string }), { imprint: '', privacy: '', contact: '/support' }),
  }),
);

export const defaultRuntimeConfig: RuntimeConfig = {
  services: {
    userService: '/user-service',
    bff: '/bff',
    contractManagement: '/contract-management',
    bookingService: '/booking-service',
  },
  csvSeparator: ';',
  redoSepaIntervalMinutes: 15,
  version: '3.0.0',
  links: { imprint: '', privacy: '', contact: '/support' },
};

export type ServiceName = keyof RuntimeConfig['services'];

export const CONFIG_URL = '/config.json';
/**
 * Last good config, kept because on the very first visit the service worker does not control the
 * page yet, so its runtime cache may not hold /config.json when the app is next opened offline.
 */
const CONFIG_STORAGE_KEY = 'runtimeConfig';

export type ConfigSource = 'network' | 'stored' | 'default';

interface Loaded {
  config: RuntimeConfig;
  source: ConfigSource;
}

let loading: Promise<Loaded> | null = null;
let current: Loaded | null = null;
let onlineListenerAdded = false;

function readStored(): RuntimeConfig | null {
  try {
    const raw = globalThis.localStorage?.getItem(CONFIG_STORAGE_KEY);
    if (!raw) return null;
    const parsed = runtimeConfigAnswer.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function store(config: RuntimeConfig): void {
  try {
    globalThis.localStorage?.setItem(CONFIG_STORAGE_KEY, JSON.stringify(config));
  } catch {
    // Quota or privacy mode: the service worker cache and the defaults remain.
  }
}

async function fetchConfig(): Promise<Loaded> {
  try {
    // no-cache: a redeployed config must win over the HTTP cache; offline the service worker answers.
    const response = await fetch(CONFIG_URL, { cache: 'no-cache', headers: { Accept: 'application/json' } });
    if (!response.ok) throw new Error(`config.json answered ${response.status}`);
    const parsed = runtimeConfigAnswer.safeParse(await response.json());
    if (!parsed.success) throw new Error(`config.json is invalid: ${JSON.stringify(parsed.error.issues)}`);
    store(parsed.data);
    return { config: parsed.data, source: 'network' };
  } catch (error) {
    // The app must still open offline, so a missing config is never fatal.
    console.warn('Using fallback runtime config', error);
    const stored = readStored();
    return stored ? { config: stored, source: 'stored' } : { config: defaultRuntimeConfig, source: 'default' };
  }
}

function retryWhenOnline(): void {
  if (onlineListenerAdded || typeof window === 'undefined') return;
  onlineListenerAdded = true;
  window.addEventListener('online', () => {
    if (current && current.source !== 'network') loading = null;
  });
}

/** Loads `/config.json` once per page; concurrent callers share the request. */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  if (!loading) {
    retryWhenOnline();
    loading = fetchConfig().then((loaded) => {
      current = loaded;
      return loaded;
    });
  }
  return loading.then((l) => l.config);
}

/** The config already loaded, or the defaults before the first load finished. */
export function getRuntimeConfig(): RuntimeConfig {
  return current?.config ?? defaultRuntimeConfig;
}

export function getRuntimeConfigSource(): ConfigSource | null {
  return current?.source ?? null;
}

export async function getServiceBase(service: ServiceName): Promise<string> {
  return (await loadRuntimeConfig()).services[service];
}

/** For tests: forget the loaded config (and optionally pin one without fetching). */
export function resetRuntimeConfig(config?: RuntimeConfig): void {
  current = config ? { config, source: 'network' } : null;
  loading = current ? Promise.resolve(current) : null;
}
