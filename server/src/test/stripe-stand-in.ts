import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as stripe from './stripe-responses';

/**
 * A local stand-in for api.stripe.com that keeps Stripe's idempotency: a POST asked again with an
 * Idempotency-Key it saw answers what it made the first time, so a test can count what the
 * provider really made. It can be slow (`delayMs` before each answer) and can lose answers
 * (`dropAnswers`: the object is made, then the connection is cut before the answer, as when a
 * process dies or a network fails after Stripe acted). `onCall` runs when a call arrives, before
 * it is answered (tests look at the database while Stripe holds the call).
 */

export interface StandInCall {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey?: string;
}

export interface StripeStandIn {
  url: string;
  calls: StandInCall[];
  /** What the stand-in made, by path: one entry per object, however often it was asked. */
  made: Map<string, string[]>;
  delayMs: number;
  dropAnswers: number;
  onCall?: (call: StandInCall) => Promise<void> | void;
  close: () => Promise<void>;
}

function objectFor(path: string, form: URLSearchParams, n: number): unknown {
  if (path === '/v1/customers') return { ...stripe.customer(form), id: `cus_standin${n}` };
  if (path === '/v1/checkout/sessions') return stripe.checkoutSession(form, `cs_test_standin${n}`);
  if (path === '/v1/payment_intents') return { ...stripe.paymentIntent(form), id: `pi_standin${n}` };
  return undefined;
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const byKey = new Map<string, unknown>();
  let serial = 0;
  const standIn: StripeStandIn = {
    url: '',
    calls: [],
    made: new Map(),
    delayMs: 0,
    dropAnswers: 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const answer = (req: IncomingMessage, call: StandInCall): [number, unknown] => {
    const made = call.idempotencyKey ? byKey.get(`${call.path} ${call.idempotencyKey}`) : undefined;
    if (made) return [200, made];
    if (req.method === 'GET' && call.path.startsWith('/v1/setup_intents/')) return [200, stripe.setupIntent(true)];
    const object = req.method === 'POST' ? objectFor(call.path, call.form, ++serial) : undefined;
    if (!object) return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${call.path}).` } }];
    if (call.idempotencyKey) byKey.set(`${call.path} ${call.idempotencyKey}`, object);
    standIn.made.set(call.path, [...(standIn.made.get(call.path) ?? []), (object as { id: string }).id]);
    return [200, object];
  };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const idem = req.headers['idempotency-key'];
      const call: StandInCall = {
        method: req.method!,
        path: new URL(req.url!, 'http://stripe.local').pathname,
        form: new URLSearchParams(text),
        idempotencyKey: typeof idem === 'string' ? idem : undefined,
      };
      standIn.calls.push(call);
      void (async () => {
        await standIn.onCall?.(call);
        if (standIn.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, standIn.delayMs));
        const [status, body] = answer(req, call);
        if (standIn.dropAnswers > 0) {
          standIn.dropAnswers--;
          req.socket.destroy();
          return;
        }
        res.writeHead(status, { 'content-type': 'application/json', 'stripe-version': stripe.STRIPE_API_VERSION });
        res.end(JSON.stringify(body));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return standIn;
}
