import type { Context } from 'hono';
import type { AppBindings } from './types';

/**
 * The multipart form of an upload route's body (read whole by `readBodyFirst` as bytes), parsed
 * once per request: the Idempotency-Key's fingerprint and the handler both read it. Undefined for
 * another content type or a body that is no valid form.
 */
const forms = new WeakMap<Request, Promise<FormData | undefined>>();

export const isMultipart = (c: Context<AppBindings>) => /^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '');

export function readFormData(c: Context<AppBindings>): Promise<FormData | undefined> {
  const known = forms.get(c.req.raw);
  if (known) return known;
  const read = (async () => {
    if (!isMultipart(c)) return undefined;
    try {
      const bytes = await c.req.arrayBuffer();
      return await new Response(bytes, { headers: { 'content-type': c.req.header('content-type')! } }).formData();
    } catch {
      return undefined;
    }
  })();
  forms.set(c.req.raw, read);
  return read;
}
