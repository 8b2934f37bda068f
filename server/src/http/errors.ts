import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod/mini';
import type { ErrorBody, ErrorCode } from '../../../contract/errors';

/** Thrown anywhere in a handler; the app's error handler turns it into the contract's error body. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message?: string,
    readonly detail?: unknown,
    readonly issues?: { path: string; message: string }[],
    /** Extra answer headers, e.g. Retry-After of a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? code);
  }

  toBody(): ErrorBody {
    return {
      errorCodeResponse: this.code,
      errorMessage: this.message,
      ...(this.detail !== undefined ? { errorDetail: this.detail } : {}),
      ...(this.issues ? { issues: this.issues } : {}),
    };
  }
}

/**
 * Some refinements of the contract carry a meaning the client reacts to (weak password, same
 * e-mail); they get their own error code instead of the generic VALIDATION_ERROR.
 */
const codeByIssueMessage: Record<string, { status: ContentfulStatusCode; code: ErrorCode }> = {
  weakPassword: { status: 400, code: 'WEAK_PASSWORD' },
  newemailsameasold: { status: 400, code: 'SAME_EMAIL' },
  tooLarge: { status: 413, code: 'PAYLOAD_TOO_LARGE' },
  '3mb': { status: 413, code: 'PAYLOAD_TOO_LARGE' },
};

export function validationError(error: z.core.$ZodError): ApiError {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const special = issues.map((i) => codeByIssueMessage[i.message]).find(Boolean);
  if (special) return new ApiError(special.status, special.code, issues[0].message, undefined, issues);
  const summary = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  return new ApiError(400, 'VALIDATION_ERROR', summary, undefined, issues);
}
