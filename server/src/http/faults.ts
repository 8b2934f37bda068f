/** A log line's sink: the server's log (stdout), or a test's collector. */
export type Log = (message: string) => void;

/** What is safe to log of an unexpected error: its kind and database error code, never the query's parameters or personal data. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 4 && e && typeof e === 'object'; i++) {
    const { name, code } = e as { name?: unknown; code?: unknown };
    parts.push([typeof name === 'string' ? name : 'Error', typeof code === 'string' ? code : ''].filter(Boolean).join(' '));
    e = (e as { cause?: unknown }).cause;
  }
  // Only the frames: a stack starts with the message, and drizzle's message holds the SQL and a
  // `params:` line over several lines, so cutting the first line kept the parameters.
  const stack =
    err instanceof Error
      ? (err.stack ?? '')
          .split('\n')
          .filter((l) => /^\s+at /.test(l))
          .slice(0, 5)
          .join('\n')
      : '';
  return `${parts.join(' <- ') || String(typeof err)}${stack ? `\n${stack}` : ''}`;
}

/**
 * Logs a caught fault once, with what was being done (`context`: fixed text and ids, never a
 * parameter value or personal data) and the error's kind: the one way to end a promise chain
 * instead of `.catch(() => {})`, which dropped faults without a trace.
 */
export function logFault(log: Log, context: string, err: unknown): void {
  log(`${context}: ${describeError(err)}`);
}
