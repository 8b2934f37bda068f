import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 64;
const PARAMS = { N: 16384, r: 8, p: 1 } as const;

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Format `scrypt$N$r$p$salt$hash` (base64url), so parameters can be raised later without breaking old hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` matches the stored hash. A stored value that is no scrypt hash (an invited
 * account's '!invited') still costs one derivation, so the answer time does not tell such accounts apart.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) {
    await burnPasswordCheck(password);
    return false;
  }
  const expected = Buffer.from(keyB64, 'base64url');
  const actual = await scryptAsync(password, Buffer.from(saltB64, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;
/** Unknown users still cost one scrypt, so response time does not reveal which e-mails exist. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(password, await dummyHash);
}

/**
 * A charge point's password (OCPP security profile 1) is made by the server, 24 random bytes
 * (`rotateStationPassword`), never chosen by a person: 192 bits cannot be guessed from their hash
 * at any hashing speed, so a salted SHA-256 guards them as well as scrypt does, and a restart's
 * reconnect storm of hundreds of stations costs microseconds instead of a scrypt each (300 took
 * 22 s of one core). Format `sha256$salt$hash` (base64url). A person's password never goes here.
 */
export function hashStationPassword(password: string): string {
  const salt = randomBytes(16);
  return ['sha256', salt.toString('base64url'), stationDigest(salt, password).toString('base64url')].join('$');
}

const stationDigest = (salt: Buffer, password: string) => createHash('sha256').update(salt).update(password, 'utf8').digest();

/** Whether a stored station hash is the fast kind; an older scrypt one is replaced after the station's next proof. */
export const isStationPasswordHash = (stored: string): boolean => stored.startsWith('sha256$');

/** Whether `password` matches a station's stored hash: the fast kind, or an older scrypt hash. */
export async function verifyStationPassword(password: string, stored: string): Promise<boolean> {
  if (!isStationPasswordHash(stored)) return verifyPassword(password, stored);
  const [, saltB64, hashB64] = stored.split('$');
  if (!saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64url');
  const actual = stationDigest(Buffer.from(saltB64, 'base64url'), password);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const dummyStationHash = hashStationPassword('dummy-station-password-for-timing');
/** An unknown station costs the same check as a known one. */
export async function burnStationPasswordCheck(password: string): Promise<void> {
  await verifyStationPassword(password, dummyStationHash);
}
