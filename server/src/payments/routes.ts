import * as z from 'zod/mini';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseQuery } from '../http/validate';
import { checkoutCss, languageOf, TEST_CHECKOUT_CSS } from './test-checkout-page';
import { completeTestCheckout, showTestCheckout, type CheckoutAnswer } from './test-checkout';
import { TEST_CHECKOUT_PATH } from './test-provider';
import { receiveWebhook } from './webhook';
import type { Context } from 'hono';

/** Stripe-like ids only: the id reaches SQL and the page, and text cannot hold a NUL. */
const sessionQuery = z.object({ session: z.string().check(z.minLength(1), z.maxLength(255), z.regex(/^[A-Za-z0-9_-]+$/)) });

const answer = (c: Context, a: CheckoutAnswer) =>
  'redirect' in a ? c.redirect(a.redirect, 303) : c.html(a.html, 200, { 'Cache-Control': 'no-store' });

/** The provider's events (Stripe's webhook, or the test mode's, signed the same way). */
export const paymentWebhookRoutes = routeTable('bff', [
  {
    // No caller token: Stripe calls it. The signature with the endpoint secret is its access check
    // (webhook.ts); without a valid one it is 400 and nothing is read further or written.
    method: 'POST',
    path: '/payments/stripe/webhook',
    access: 'public',
    // Its own short transaction, after Stripe was asked what the event needs (webhook.ts).
    transaction: false,
    handler: async (c) => {
      const result = await receiveWebhook(c.get('db'), c.get('env'), await c.req.text(), c.req.header('stripe-signature'));
      return ok(c, { received: true, result });
    },
  },
]);

/**
 * The test mode's own checkout page, the session in the query (`?session=cs_test_…`): a path
 * parameter would let a malformed link fall through to the app's plain-text 404.
 * The page (test-checkout-page.ts); 404 CHECKOUT_NOT_FOUND when Stripe is configured. */
export const testCheckoutRoutes = routeTable('root', [
  {
    method: 'GET',
    path: TEST_CHECKOUT_CSS,
    access: 'public',
    handler: (c) => c.body(checkoutCss, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600' }),
  },
  {
    method: 'GET',
    path: TEST_CHECKOUT_PATH,
    access: 'public',
    handler: async (c) => {
      const { session: sessionId } = parseQuery(c, sessionQuery);
      return answer(c, await showTestCheckout(c.get('db'), c.get('env'), sessionId, languageOf(c.req.header('accept-language'))));
    },
  },
  {
    method: 'POST',
    path: TEST_CHECKOUT_PATH,
    access: 'public',
    handler: async (c) => {
      const { session: sessionId } = parseQuery(c, sessionQuery);
      const fields = new URLSearchParams(await c.req.text());
      const form = {
        accountHolder: fields.get('accountHolder') ?? '',
        iban: fields.get('iban') ?? '',
        accept: fields.get('accept') === 'yes',
      };
      return answer(c, await completeTestCheckout(c.get('db'), c.get('env'), sessionId, form, languageOf(c.req.header('accept-language'))));
    },
  },
]);

export const paymentRoutes = [...paymentWebhookRoutes, ...testCheckoutRoutes];
