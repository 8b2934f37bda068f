/** The prefix a 409 BILL_NUMBER_PREFIX_TAKEN names (from the API or the outbox's refusal), else null. */
export function prefixTakenOf(error: unknown): string | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as { errorCodeResponse?: unknown; code?: unknown; errorDetail?: unknown; detail?: unknown };
  if ((e.errorCodeResponse ?? e.code) !== 'BILL_NUMBER_PREFIX_TAKEN') return null;
  const detail = (e.errorDetail ?? e.detail ?? {}) as { billNumberPrefix?: unknown };
  return typeof detail.billNumberPrefix === 'string' ? detail.billNumberPrefix : '';
}
