import { createHmac } from 'node:crypto';
import type { Env } from '../env';
import type { PaymentProvider } from './provider';
import { stripeProvider, type StripeEndpoint } from './stripe-provider';
import { testProvider } from './test-provider';

const chosen = new WeakMap<Env, PaymentProvider>();

function endpointOf(url: string | undefined): StripeEndpoint | undefined {
  if (!url) return undefined;
  const u = new URL(url);
  const protocol = u.protocol === 'http:' ? 'http' : 'https';
  return { host: u.hostname, port: Number(u.port) || (protocol === 'http' ? 80 : 443), protocol };
}

/**
 * The test mode's webhook secret: derived from JWT_SECRET, so it is stable across restarts and
 * instances of one installation and secret like it, without another setting.
 */
export const testWebhookSecret = (env: Pick<Env, 'JWT_SECRET'>) =>
  `whsec_test_${createHmac('sha256', env.JWT_SECRET).update('payments-test-mode-webhook').digest('hex')}`;

/** Stripe when its two secrets are set, the local test mode otherwise (README, "Payments"). */
export function paymentProvider(env: Env): PaymentProvider {
  let provider = chosen.get(env);
  if (!provider) {
    provider =
      env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET
        ? stripeProvider(env.STRIPE_SECRET_KEY, env.STRIPE_WEBHOOK_SECRET, endpointOf(env.STRIPE_API_URL))
        : testProvider(env, testWebhookSecret(env));
    chosen.set(env, provider);
  }
  return provider;
}
