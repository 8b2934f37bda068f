import type { OutboxWrite } from './outbox-write';

/**
 * The version a new write of one entity (`scope`) must carry: the one the user saw, or one more
 * than the version expected by a write of the same scope still queued or just sent (before the
 * screen refetched), since the server moves an entity's version on by exactly one for every write
 * it accepts. Without this a second offline change would be refused as a conflict with the user's
 * own first one. Failed writes changed nothing and do not count; neither do writes that carry no
 * version (an invitation mail does not move a contract on). An entity without a version stays so.
 */
export function versionToSend(seen: number, scope: string, writes: readonly OutboxWrite[]): number;
export function versionToSend(seen: number | undefined, scope: string, writes: readonly OutboxWrite[]): number | undefined;
export function versionToSend(seen: number | undefined, scope: string, writes: readonly OutboxWrite[]): number | undefined {
  if (seen === undefined) return undefined;
  let version = seen;
  for (const w of writes) {
    if (w.scope === scope && w.state !== 'failed' && w.version !== undefined) version = Math.max(version, w.version + 1);
  }
  return version;
}
