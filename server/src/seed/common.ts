import { composeIBAN } from 'ibantools';
import { cities, streets } from './german-data';
import type { Random } from './random';

/** What every area's part of the seed draws from: one random stream (in a fixed order), one clock, one size. */
export interface SeedContext {
  rnd: Random;
  now: Date;
  spec: SizeSpec;
}

export interface SizeSpec {
  /** Operators per non-platform customer; the customer type alternates Operator, Partner, Operator, Partner. */
  operatorsPerCustomer: number[];
  locations: number;
  connectors: number;
  contracts: number;
  chargingRequests: number;
  billMonths: number;
  requestMonths: number;
}

/** A German IBAN with valid check digits (ISO 13616) from 20 random digits: 18 become the BBAN. */
export const germanIban = (digits: string) => composeIBAN({ countryCode: 'DE', bban: digits.slice(2) })!;

export const DAY = 86_400_000;
export const round2 = (n: number) => Math.round(n * 100) / 100;
export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
export const ascii = (s: string) =>
  s
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function address(rnd: Random) {
  const [zipCode, city] = rnd.pick(cities);
  return { street: `${rnd.pick(streets)} ${rnd.int(1, 120)}`, zipCode, city };
}
