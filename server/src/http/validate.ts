import type { Context } from 'hono';
import type { z } from 'zod/mini';
import './zod-messages';
import { ApiError, validationError } from './errors';
import { refuseUnstorableJson } from './request';

/** Reads the JSON body (already read and size-checked by `readBodyFirst`); malformed JSON or a NUL in it is a 400, never a 500. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'VALIDATION_ERROR', 'Malformed JSON body', undefined, [{ path: '', message: 'malformedJson' }]);
  }
  refuseUnstorableJson(value);
  return value;
}

export function parseWith<S extends z.ZodMiniType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

export async function parseBody<S extends z.ZodMiniType>(c: Context, schema: S): Promise<z.output<S>> {
  return parseWith(schema, await readJson(c));
}

export function parseQuery<S extends z.ZodMiniType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.query());
}

export function parseParams<S extends z.ZodMiniType>(c: Context, schema: S): z.output<S> {
  return parseWith(schema, c.req.param());
}
