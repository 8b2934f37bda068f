/** Spec 1 §5: end customer ids are typed as digits; dashes follow the 3rd and 8th digit (123-45678-901). */
export const END_CUSTOMER_ID_MAX_LENGTH = 13;
export const END_CUSTOMER_ID_DIGITS = 11;
export const TRANSACTION_ID_MAX_LENGTH = 22;

/**
 * Formats what the user typed (or pasted) as an end customer id: non-digits are dropped, at most
 * 11 digits kept, and a dash is inserted after the 3rd and 8th digit once a further digit follows.
 * No trailing dash is added, so Backspace removes a digit instead of fighting an automatic dash.
 */
export function formatEndCustomerId(input: string): string {
  const digits = input.replace(/\D/g, '').slice(0, END_CUSTOMER_ID_DIGITS);
  if (digits.length <= 3) return digits;
  if (digits.length <= 8) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 8)}-${digits.slice(8)}`;
}
