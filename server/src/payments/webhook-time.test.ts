import { describe, expect, it } from 'vitest';
import { signPayload, verifiedEvent } from './webhook';

/**
 * Issue 34: a correctly signed webhook is accepted only when its signed timestamp is within ±5
 * minutes of our clock. Stripe's SDK refuses an old one but took one dated any time ahead.
 */

const secret = 'whsec_webhook_time_test';
const payload = JSON.stringify({
  id: 'evt_time',
  object: 'event',
  type: 'payment_intent.succeeded',
  created: 1_764_000_000,
  data: { object: {} },
});
const signedAt = (offsetSeconds: number) => signPayload(secret, payload, Math.floor(Date.now() / 1000) + offsetSeconds);
const refusal = (signature: string) => {
  try {
    verifiedEvent(secret, payload, signature);
    return null;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
};

describe("a webhook's signed timestamp", () => {
  it('is accepted within ±5 minutes', () => {
    for (const offset of [-290, -60, 0, 60, 290]) expect(refusal(signedAt(offset)), `${offset} s`).toBeNull();
  });

  it('is refused 10 minutes ahead, or more than 5 minutes either way', () => {
    for (const offset of [600, 310, 86_400, -310, -600]) expect(refusal(signedAt(offset)), `${offset} s`).toBe('WEBHOOK_SIGNATURE_INVALID');
  });

  it('is refused when the header holds two timestamps', () => {
    const now = signedAt(0);
    expect(refusal(`t=${Math.floor(Date.now() / 1000) + 600},${now}`)).toBe('WEBHOOK_SIGNATURE_INVALID');
  });
});
