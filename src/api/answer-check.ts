/*
 * Hand-written checks of the few answers the first route reads (the token pair of sign-in and
 * refresh, error bodies, /config.json, the access token's claims): the contract's zod schemas would
 * put zod (~9 KB gzip) on the sign-in page. Each check mirrors its schema and is held to it by
 * answer-check.test.ts, on valid and broken samples; every other answer is checked by the contract's
 * schema. A check has zod's `safeParse` shape, so the API client takes either.
 */

export interface AnswerIssue {
  path: PropertyKey[];
  message: string;
}

export type AnswerResult<T> = { success: true; data: T } | { success: false; error: { issues: AnswerIssue[] } };

/** What checks an answer: a zod/mini schema, or `answerCheck` of a hand-written reader. */
export interface AnswerCheck<T> {
  safeParse(data: unknown): AnswerResult<T>;
}

/** Reads a value of the expected shape (unknown keys dropped, defaults filled in), or throws at the first difference. */
export type Read<T> = (value: unknown) => T;

class Mismatch {
  readonly path: PropertyKey[] = [];
  constructor(readonly message: string) {}
}

/** `read`, then `test` on what it read. */
export const where =
  <T>(read: Read<T>, test: (value: T) => boolean, expected: string): Read<T> =>
  (value) => {
    const checked = read(value);
    if (!test(checked)) throw new Mismatch(`expected ${expected}`);
    return checked;
  };

export const unknown: Read<unknown> = (value) => value;
const is = <T>(test: (value: unknown) => boolean, expected: string) => where(unknown, test, expected) as Read<T>;

export const string = is<string>((v) => typeof v === 'string', 'string');
export const number = is<number>((v) => typeof v === 'number' && Number.isFinite(v), 'number');
export const integer = is<number>(Number.isSafeInteger, 'integer');
export const boolean = is<boolean>((v) => typeof v === 'boolean', 'boolean');
export const oneOf = <const T>(values: readonly T[]) => is<T>((v) => values.includes(v as T), values.join(' | '));
/** Absent (undefined) is allowed and gives `fallback`. */
export function optional<T>(read: Read<T>): Read<T | undefined>;
export function optional<T>(read: Read<T>, fallback: T): Read<T>;
export function optional<T>(read: Read<T>, fallback?: T): Read<T | undefined> {
  return (value) => (value === undefined ? fallback : read(value));
}

const at = <T>(key: PropertyKey, read: Read<T>, value: unknown): T => {
  try {
    return read(value);
  } catch (error) {
    if (error instanceof Mismatch) error.path.unshift(key);
    throw error;
  }
};

export const arrayOf =
  <T>(read: Read<T>): Read<T[]> =>
  (value) => {
    if (!Array.isArray(value)) throw new Mismatch('expected array');
    return value.map((item: unknown, i) => at(i, read, item));
  };

export const object =
  <S extends Record<string, Read<unknown>>>(fields: S): Read<{ [K in keyof S]: ReturnType<S[K]> }> =>
  (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Mismatch('expected object');
    const out: Record<string, unknown> = {};
    for (const key in fields) out[key] = at(key, fields[key]!, (value as Record<string, unknown>)[key]);
    return out as { [K in keyof S]: ReturnType<S[K]> };
  };

/** The value read, or null when it does not match. */
export const readOrNull = <T>(read: Read<T>, value: unknown): T | null => {
  const result = answerCheck(read).safeParse(value);
  return result.success ? result.data : null;
};

export function answerCheck<T>(read: Read<T>): AnswerCheck<T> {
  return {
    safeParse(data) {
      try {
        return { success: true, data: read(data) };
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error;
        return { success: false, error: { issues: [{ path: error.path, message: error.message }] } };
      }
    },
  };
}
