import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import './http/zod-messages';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const seedSizes = ['demo', 'small', 'none'] as const;
export type SeedSize = (typeof seedSizes)[number];

/** The first stations of the demo data that `npm start` simulates in its process; `npm run simulate` skips as many by default. */
export const DEFAULT_SIMULATED_STATIONS = 5;

export const envSchema = z.object({
  /**
   * The address the server listens on. Loopback by default: reachable from this machine (and a
   * reverse proxy on it) only; `0.0.0.0` or `::` for every interface, which then needs PUBLIC_URL.
   */
  HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
  PORT: z._default(z.coerce.number().check(z.int(), z.gte(0), z.lte(65535)), 8080),
  DATABASE_URL: z.pipe(z.transform(emptyToUndefined), z.optional(z.string())),
  DATA_DIR: z._default(z.string(), './data'),
  SEED: z._default(z.enum(seedSizes), 'demo'),
  JWT_SECRET: z.pipe(
    z.transform(emptyToUndefined),
    z.optional(z.string().check(z.minLength(32, 'JWT_SECRET needs at least 32 characters'))),
  ),
  JWT_ISSUER: z._default(z.string(), 'cpo-cockpit'),
  ACCESS_TOKEN_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 900),
  // Field staff work offline for days; two weeks keeps them signed in across a trip.
  REFRESH_TOKEN_TTL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 14 * 24 * 3600),
  SMTP_URL: z.pipe(z.transform(emptyToUndefined), z.optional(z.string())),
  MAIL_FROM: z._default(z.string(), 'CPO Cockpit <no-reply@cockpit.example>'),
  SUPPORT_EMAIL: z._default(z.string(), 'support@cockpit.example'),
  /** The operations team: gets a new customer's invitation link to pass on (spec 3 §2). */
  OPERATIONS_EMAIL: z._default(z.string(), 'operations@cockpit.example'),
  PUBLIC_URL: z.pipe(
    z._default(z.string().check(z.url()), 'http://localhost:8080'),
    z.transform((u: string) => u.replace(/\/+$/, '')),
  ),
  /** The end customers' app: an invitation links to it with the contract key (spec 2 §4). */
  END_CUSTOMER_APP_URL: z._default(z.string().check(z.url()), 'https://app.cockpit.example/vertrag'),
  STATIC_DIR: z._default(z.string(), './dist'),
  CSV_SEPARATOR: z._default(z.string().check(z.length(1)), ';'),
  /**
   * Stripe (payments/): with both set, SEPA mandates are made through Stripe Checkout and bills are
   * collected by Stripe; without them the local test mode stands in (README, "Payments").
   */
  STRIPE_SECRET_KEY: z.pipe(z.transform(emptyToUndefined), z.optional(z.string())),
  STRIPE_WEBHOOK_SECRET: z.pipe(z.transform(emptyToUndefined), z.optional(z.string())),
  /** Where the Stripe SDK sends its calls (default Stripe's API); tests point it at a local stand-in. */
  STRIPE_API_URL: z.pipe(z.transform(emptyToUndefined), z.optional(z.string().check(z.url()))),
  REDO_SEPA_INTERVAL_MINUTES: z._default(z.coerce.number().check(z.int(), z.positive()), 15),
  /** API request bodies above this are refused with 413 PAYLOAD_TOO_LARGE before they are read whole. */
  JSON_BODY_LIMIT_BYTES: z._default(z.coerce.number().check(z.int(), z.positive()), 1024 * 1024),
  /** The limit of routes that carry a file (the support mail's attachment of ≤ 5 MB travels as a JSON byte array, ~4x). */
  UPLOAD_BODY_LIMIT_BYTES: z._default(z.coerce.number().check(z.int(), z.positive()), 25 * 1024 * 1024),
  /**
   * After a 413, the rest of the refused body is read and thrown away up to this many bytes before
   * the socket closes, so a client still sending reads the answer instead of a reset (http/request.ts).
   */
  REFUSED_BODY_DISCARD_BYTES: z._default(z.coerce.number().check(z.int(), z.gte(0)), 64 * 1024 * 1024),
  /** …and only while the client keeps sending: this long without a byte, and the socket closes. */
  REFUSED_BODY_DISCARD_IDLE_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 1000),
  /**
   * An uploaded file is parsed in a worker thread ended after this long (refused as 422
   * UPLOAD_NOT_READABLE). The station import's parse counts the thread's CPU time against it, not the
   * wall clock, so a busy machine refuses no valid file (stations/import/parse-file.ts).
   */
  UPLOAD_CHECK_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 5000),
  /** The station import's parse is ended after this much wall-clock time only if it hangs (its limit is CPU time). */
  UPLOAD_CHECK_WALL_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 120_000),
  /** The heap of that worker thread; more is refused the same way. */
  UPLOAD_CHECK_MEMORY_MB: z._default(z.coerce.number().check(z.int(), z.positive()), 128),
  /** An image declaring more pixels (width × height in its header) is refused before it is decoded: 422 IMAGE_TOO_LARGE. */
  UPLOAD_MAX_PIXELS: z._default(z.coerce.number().check(z.int(), z.positive()), 40_000_000),
  /** Uploads parsed at once; more wait their turn. */
  UPLOAD_CHECK_CONCURRENCY: z._default(z.coerce.number().check(z.int(), z.positive()), 2),
  /** The station import's file (`stations/import/README.md`): above it 413 PAYLOAD_TOO_LARGE. */
  STATION_IMPORT_MAX_BYTES: z._default(z.coerce.number().check(z.int(), z.positive()), 5 * 1024 * 1024),
  /** Data rows a station import may hold; more is refused as ERROR_PARSING_<kind>_FILE (tooManyRows). */
  STATION_IMPORT_MAX_ROWS: z._default(z.coerce.number().check(z.int(), z.positive()), 10_000),
  /** What an XLSX may inflate to in all (a zip bomb is refused before it fills memory). */
  STATION_IMPORT_MAX_UNCOMPRESSED_BYTES: z._default(z.coerce.number().check(z.int(), z.positive()), 50 * 1024 * 1024),
  /** Open connections the server takes in all; more are refused (each is a file of the process's limit). */
  MAX_CONNECTIONS: z._default(z.coerce.number().check(z.int(), z.positive()), 4000),
  /** Open connections per client address (the socket's, not X-Forwarded-For); 0: no cap, for behind a proxy. */
  MAX_CONNECTIONS_PER_ADDRESS: z._default(z.coerce.number().check(z.int(), z.gte(0)), 100),
  /** An idle keep-alive connection is closed after this. */
  KEEP_ALIVE_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 10_000),
  /** A connection gets this long for a request's headers (a connection that sends nothing is closed after it too). */
  HEADERS_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 10_000),
  /** A connection gets this long for a whole request (a support attachment on one bar of signal). */
  REQUEST_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 120_000),
  /** OCPP: the heartbeat interval a station is given at boot; 2.5 intervals without a message, or a presence lease of about one interval not renewed, make it OFFLINE. */
  OCPP_HEARTBEAT_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 60),
  /** OCPP: how often the instance looks for stations gone silent. */
  OCPP_LIVENESS_CHECK_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 5000),
  /** OCPP: last-seen and heartbeat times wait in memory this long and go out in one statement (presence.ts); well below a heartbeat interval. */
  OCPP_PRESENCE_FLUSH_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 5000),
  /** OCPP: frames a station socket may send per second, sustained (a real station sends a few a minute). */
  OCPP_FRAMES_PER_SECOND: z._default(z.coerce.number().check(z.positive()), 5),
  /** OCPP: frames a station socket may send at once beyond that (a boot, a transaction's end, a replay after an outage); over it CALLERRORs, as many again refused and the socket closes with 1008. */
  OCPP_FRAME_BURST: z._default(z.coerce.number().check(z.int(), z.positive()), 100),
  /** OCPP: stations connected to this instance at once (their sockets are outside MAX_CONNECTIONS_PER_ADDRESS). */
  OCPP_MAX_STATIONS: z._default(z.coerce.number().check(z.int(), z.positive()), 5000),
  /** OCPP: how long an operation waits for the station's answer. */
  OCPP_CALL_TIMEOUT_MS: z._default(z.coerce.number().check(z.int(), z.positive()), 15_000),
  /** A live-status stream (GET /bff/ocpp/live) ends after this; the app opens it again, and the session and scope are checked anew. */
  OCPP_LIVE_STREAM_SECONDS: z._default(z.coerce.number().check(z.positive()), 300),
  /** How often SENT STRIPE_SEPA bills are collected (payments/collection.ts). */
  COLLECTION_INTERVAL_SECONDS: z._default(z.coerce.number().check(z.int(), z.positive()), 60),
  /** `npm start` (main.ts) runs this many simulated charge points of the demo data in the process; 0 turns them off. */
  SIMULATED_STATIONS: z._default(z.coerce.number().check(z.int(), z.gte(0)), DEFAULT_SIMULATED_STATIONS),
  /**
   * How many trusted proxies stand in front (`true` = 1, `false` = 0): the client address for the
   * sign-in and station-password limits is the X-Forwarded-For entry the outermost of them appended
   * (1: the last entry, 2: the one before it); the entries before it are the client's own text.
   */
  TRUST_PROXY: z.pipe(
    z._default(z.string().check(z.regex(/^(true|false|\d{1,2}|)$/)), 'false'),
    z.transform((v: string) => (v === 'true' ? 1 : v === 'false' || v === '' ? 0 : Number(v))),
  ),
  /** OCPP: station upgrades handled at once (throttles, password check); more are answered 503 with Retry-After. */
  OCPP_MAX_PENDING_UPGRADES: z._default(z.coerce.number().check(z.int(), z.positive()), 50),
  /** OCPP: station password hashes (scrypt, ~40 ms of one core each) computed at once; the other upgrades wait for one. */
  OCPP_PASSWORD_CHECKS: z._default(z.coerce.number().check(z.int(), z.positive()), 1),
  APP_VERSION: z._default(z.string(), '3.0.0'),
  IMPRINT_URL: z._default(z.string(), ''),
  PRIVACY_URL: z._default(z.string(), ''),
  CONTACT_URL: z._default(z.string(), '/support'),
});

export type Env = z.infer<typeof envSchema> & { JWT_SECRET: string };

/**
 * Parses the environment. Without JWT_SECRET a secret is generated once and kept in
 * DATA_DIR/jwt-secret, so restarts keep sessions valid without any setup.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const env = parsed.data;
  const problem = publicUrlProblem(env.HOST, source.PUBLIC_URL);
  if (problem) throw new Error(`Invalid environment:\n  PUBLIC_URL: ${problem}`);
  return { ...env, JWT_SECRET: env.JWT_SECRET ?? persistedSecret(env.DATA_DIR) };
}

/** Names of this machine only: a server bound to one of them is reached from here (or a proxy here) alone. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * Why the environment's PUBLIC_URL will not do, if it will not: links in mails (password resets,
 * invitations) use it, and its default `http://localhost:8080` points every recipient at their
 * own machine. Only a server that listens on loopback alone (development) may go without it.
 */
export function publicUrlProblem(host: string, publicUrl: string | undefined): string | undefined {
  if (publicUrl?.trim() || isLoopbackHost(host)) return undefined;
  return `must be set when the server listens on ${host} (HOST): links in mails would point to http://localhost:8080`;
}

function persistedSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  return secret;
}

/** Defaults for tests: in-memory everything, a fixed secret, no static build. */
export function testEnv(overrides: Partial<Env> = {}): Env {
  const env = envSchema.parse({ SEED: 'small', STATIC_DIR: './.no-static-dir' });
  // Live streams end after a tenth of a second in tests: the access matrix and the fuzz test read every answer to its end.
  // Station presence goes out every 200 ms: a test reads a heartbeat's time soon after it was sent.
  return {
    ...env,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    OCPP_LIVE_STREAM_SECONDS: 0.1,
    OCPP_PRESENCE_FLUSH_MS: 200,
    ...overrides,
  };
}
