import type { ErrorBody } from '../../contract/errors';
import { answerCheck, arrayOf, object, optional, string, unknown, type AnswerIssue } from './answer-check';

export type FieldIssue = { path: string; message: string };

export const GENERIC_ERROR_CODE = 'UNKNOWN_ERROR';
/** Spec 1 §8: a body that is not the error contract rejects with this text. */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong';

/** A non-2xx answer (or a 2xx whose body breaks the contract). Fields mirror the wire error body. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  readonly status: number;
  readonly errorCodeResponse: string;
  readonly errorMessage: string;
  readonly errorDetail: unknown;
  readonly issues: FieldIssue[];

  constructor(init: { status: number; errorCodeResponse?: string; errorMessage?: string; errorDetail?: unknown; issues?: FieldIssue[] }) {
    const code = init.errorCodeResponse || GENERIC_ERROR_CODE;
    const message = init.errorMessage || GENERIC_ERROR_MESSAGE;
    super(message);
    this.status = init.status;
    this.errorCodeResponse = code;
    this.errorMessage = message;
    this.errorDetail = init.errorDetail;
    this.issues = init.issues ?? [];
  }
}

/**
 * 401 that a token refresh could not cure: the tokens are gone and the user must sign in again.
 * Queued writes should stay queued (not fail) when they meet this.
 */
export class SessionExpiredError extends ApiError {
  override readonly name: string = 'SessionExpiredError';
}

/** A 2xx answer whose body does not match the contract; retrying will not help. */
export class ResponseShapeError extends ApiError {
  override readonly name: string = 'ResponseShapeError';
}

export type NetworkFailure = 'offline' | 'failed';

/** The request never got an HTTP answer. `offline` when the browser knows it is offline. */
export class NetworkError extends Error {
  override readonly name: string = 'NetworkError';
  readonly reason: NetworkFailure;

  constructor(reason: NetworkFailure, options?: { cause?: unknown }) {
    super(reason === 'offline' ? 'The device is offline' : 'The request failed', options);
    this.reason = reason;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;
export const isNetworkError = (error: unknown): error is NetworkError => error instanceof NetworkError;

export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** contract/errors.ts's errorBodySchema, read by hand (answer-check.ts says why). */
export const errorBodyAnswer = answerCheck<ErrorBody>(
  object({
    errorCodeResponse: string,
    errorMessage: optional(string, ''),
    errorDetail: optional(unknown),
    issues: optional(arrayOf(object({ path: string, message: string }))),
  }),
);

/** Builds the ApiError for an error answer; any body that is not the contract's error body becomes the generic error. */
export async function apiErrorFromResponse(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const parsed = errorBodyAnswer.safeParse(json);
  if (parsed.success) {
    return new ApiError({
      status: response.status,
      errorCodeResponse: parsed.data.errorCodeResponse,
      errorMessage: parsed.data.errorMessage,
      errorDetail: parsed.data.errorDetail,
      issues: parsed.data.issues,
    });
  }
  // Keep a JSON body that is not the contract (another backend's shape): spec 1 §8 shows its `error` field.
  return new ApiError({ status: response.status, errorDetail: json });
}

/** The issues of a failed answer check (zod's or a hand-written one) as field issues. */
export function issuesFromZod(error: { issues: readonly AnswerIssue[] }): FieldIssue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}
