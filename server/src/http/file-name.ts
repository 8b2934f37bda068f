/**
 * Bidirectional controls (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM, ALM): in a file
 * name they make `rechnung\u202Efdp.exe` show as `rechnungexe.pdf` in a mail client or a download
 * bar, so a name that lies about its type. No real file name needs them.
 */
const bidiControls = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * A file name as the server stores and sends it: no path parts (a `/` or `\` becomes `_`), no
 * control characters, no bidirectional controls; empty when nothing is left (the caller's default).
 */
export function cleanFileName(name: string | null | undefined): string {
  return (name ?? '')
    .replace(/[/\\]/g, '_')
    .replace(/\p{Cc}/gu, '')
    .replace(bidiControls, '')
    .trim();
}
