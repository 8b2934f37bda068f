import { getClaims, subscribeTokens } from '../auth/token-store';
import type { Outbox } from './outbox';
import { clearSignedOutNote, writeSignedOutNote } from './signed-out-note';

/**
 * The server ended the session (signed out on another device, the refresh token revoked or
 * expired): the sign-in page says why and how many changes of this account wait on the device for
 * its next sign-in (they are kept, never dropped: outbox.ts `waitForSignIn`). Another tab's clear
 * reads 'unknown' and leaves that tab's note alone. Returns the unsubscribe.
 */
export function watchSignedOut(outbox: Pick<Outbox, 'getSnapshot'>): () => void {
  let owner = getClaims()?.sub ?? null;
  return subscribeTokens((change) => {
    if (change.type === 'set') {
      owner = getClaims()?.sub ?? owner;
      return;
    }
    if (change.reason === 'session-expired') {
      const waiting = outbox.getSnapshot().filter((w) => w.state !== 'done' && w.owner === owner).length;
      writeSignedOutNote({ waiting });
    } else if (change.reason === 'logout') clearSignedOutNote();
  });
}
