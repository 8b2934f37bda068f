/**
 * Text without ICU syntax (arguments, tags, quoting): shown as it is. The build keeps only such
 * messages as strings and compiles all others (compile-messages.ts), so the app never parses ICU.
 */
export const isPlainText = (message: string): boolean => !/[{}<']/.test(message);
