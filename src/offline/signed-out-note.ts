/**
 * Why the last session on this device ended, for the sign-in page: a session ended by the server
 * (signed out on another device, a password change, the refresh token expired) used to land on the
 * sign-in page without a word, while writes waited on the device. The signed-in side writes the
 * note when it happens (offline/query-runtime.tsx), with how many changes wait for the next sign-in
 * of the same account; the sign-in page reads it. Imports nothing: it is on the first route.
 */

const NOTE_KEY = 'cpo-signed-out';

export interface SignedOutNote {
  /** Changes of the signed-out account still on this device, sent after its next sign-in. */
  waiting: number;
}

export function writeSignedOutNote(note: SignedOutNote): void {
  try {
    localStorage.setItem(NOTE_KEY, JSON.stringify(note));
  } catch {
    // Storage full or blocked: the sign-in page then says nothing, as before.
  }
}

export function readSignedOutNote(): SignedOutNote | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(NOTE_KEY) ?? 'null');
    const waiting = (parsed as { waiting?: unknown } | null)?.waiting;
    return typeof waiting === 'number' && Number.isInteger(waiting) && waiting >= 0 ? { waiting } : null;
  } catch {
    return null;
  }
}

export function clearSignedOutNote(): void {
  try {
    localStorage.removeItem(NOTE_KEY);
  } catch {
    // Nothing to do: the note is only a hint.
  }
}
