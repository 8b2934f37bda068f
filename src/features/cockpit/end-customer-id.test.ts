import { describe, expect, it } from 'vitest';
import { END_CUSTOMER_ID_MAX_LENGTH, formatEndCustomerId } from './end-customer-id';

describe('formatEndCustomerId', () => {
  it('keeps up to three digits as they are', () => {
    expect(formatEndCustomerId('')).toBe('');
    expect(formatEndCustomerId('1')).toBe('1');
    expect(formatEndCustomerId('123')).toBe('123');
  });

  it('inserts a dash after the 3rd digit once a 4th follows', () => {
    expect(formatEndCustomerId('1234')).toBe('123-4');
    expect(formatEndCustomerId('12345678')).toBe('123-45678');
  });

  it('inserts a second dash after the 8th digit', () => {
    expect(formatEndCustomerId('123456789')).toBe('123-45678-9');
    expect(formatEndCustomerId('12345678901')).toBe('123-45678-901');
  });

  it('drops non-digits and re-places dashes the user typed or deleted', () => {
    expect(formatEndCustomerId('12a3-4 5')).toBe('123-45');
    expect(formatEndCustomerId('123-')).toBe('123');
    expect(formatEndCustomerId('12-345678-901')).toBe('123-45678-901');
    expect(formatEndCustomerId('abc')).toBe('');
  });

  it('never exceeds 13 characters (11 digits)', () => {
    const formatted = formatEndCustomerId('1234567890123456');
    expect(formatted).toBe('123-45678-901');
    expect(formatted.length).toBe(END_CUSTOMER_ID_MAX_LENGTH);
  });

  it('is idempotent', () => {
    const once = formatEndCustomerId('98765432109');
    expect(formatEndCustomerId(once)).toBe(once);
  });
});
