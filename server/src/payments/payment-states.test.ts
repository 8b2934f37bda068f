import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { stripePaymentStates } from '../../../contract/bills';
import { paymentStates } from './payment-states';

/** Stripe's named PaymentIntent statuses, without the SDK's open-ended `OtherString`. */
type NamedStatus<T> = T extends string ? (string extends T ? never : T) : never;

describe('the payment states a bill can hold', () => {
  it('are all known to the bills list (each has its label there), from the events and from Stripe’s answer to a collection', () => {
    // A status Stripe adds to its SDK's type fails the type check here until it is named.
    const intentStatuses: Record<NamedStatus<Stripe.PaymentIntent.Status>, true> = {
      canceled: true,
      processing: true,
      requires_action: true,
      requires_capture: true,
      requires_confirmation: true,
      requires_payment_method: true,
      succeeded: true,
    };
    const known: readonly string[] = stripePaymentStates;
    expect([...Object.keys(paymentStates), ...Object.keys(intentStatuses)].filter((s) => !known.includes(s))).toEqual([]);
  });
});
