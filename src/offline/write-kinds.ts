import type { TranslateFn } from '../i18n/i18n-context';
import type { OutboxError, OutboxWrite } from './outbox-write';
import type { RefreshTarget } from './refresh-after-write';

/**
 * The registry of write kinds: the outbox itself knows no area. Each area registers the kinds of
 * writes it queues (in its `api/*-writes.ts`, imported by src/write-kinds.ts before any replay) with
 * what the outbox screen and the query cache need to know about them. Labels are rendered from the
 * write's data when shown, so they follow a language switch.
 */
export interface WriteKind<D> {
  kind: string;
  /** The kind in words, e.g. 'Parkplatz zuweisen'. */
  name: (t: TranslateFn) => string;
  /** What the write does, e.g. 'Ladepunkt OLI_2 · Parkplatz P12'. */
  label: (data: D, t: TranslateFn) => string;
  /**
   * Every query showing what the write changed, refreshed once the server answered it (applied, or
   * refused because the entity is not what the user saw): factory options or key families.
   */
  refreshes: (data: D) => readonly RefreshTarget[];
  /** Where the user makes the change again (the screen with its form), e.g. '/stationen/OLI1_2'. */
  formPath?: (data: D) => string;
  /** A refusal in the area's words (e.g. what a colleague changed meanwhile); null for the server's message. */
  describeFailure?: (error: OutboxError, t: TranslateFn) => string | null;
  /**
   * The values the write gives its entity (the write's `scope`), by field name, e.g.
   * `{ parkingLot: 'P12' }`: every screen showing such a field shows the value on its way with a
   * 'wird gesendet' marker (offline/pending-value.tsx) until the server answered.
   */
  sets?: (data: D) => Readonly<Record<string, unknown>>;
}

const kinds = new Map<string, WriteKind<never>>();

export function registerWriteKind<D>(definition: WriteKind<D>): void {
  kinds.set(definition.kind, definition as WriteKind<never>);
}

function kindOf(write: OutboxWrite): WriteKind<unknown> | undefined {
  return kinds.get(write.kind) as WriteKind<unknown> | undefined;
}

export function writeKindName(write: OutboxWrite, t: TranslateFn): string {
  return kindOf(write)?.name(t) ?? write.kind;
}

export function writeLabel(write: OutboxWrite, t: TranslateFn): string {
  const kind = kindOf(write);
  return kind && write.data !== undefined ? kind.label(write.data, t) : (write.label ?? write.scope);
}

export function formPath(write: OutboxWrite): string | null {
  const kind = kindOf(write);
  return kind?.formPath && write.data !== undefined ? kind.formPath(write.data) : null;
}

export function describeFailure(write: OutboxWrite, t: TranslateFn): string | null {
  return write.lastError ? (kindOf(write)?.describeFailure?.(write.lastError, t) ?? null) : null;
}

/**
 * What a stored failure reads as: the kind's own wording, else one by the kind of failure. Never the
 * server's or the browser's raw message, which is English and meant for logs (issue 23).
 */
export function failureText(write: OutboxWrite, t: TranslateFn): string {
  const own = describeFailure(write, t);
  if (own) return own;
  const error = write.lastError;
  if (!error) return t('errors.somethingWrong');
  if (error.code === 'NETWORK_ERROR') return t('errors.noAnswer');
  switch (error.status) {
    case 400:
    case 422:
      return t('errors.validation');
    case 403:
      return t('errors.forbidden');
    case 404:
      return t('errors.notFound');
    case 413:
      return t('errors.tooLarge');
    default:
      return t('errors.somethingWrong');
  }
}

/** What to refresh after the server answered `write` (nothing for an unknown kind). */
export function queriesChangedBy(write: OutboxWrite): readonly RefreshTarget[] {
  const kind = kindOf(write);
  return kind && write.data !== undefined ? kind.refreshes(write.data) : [];
}

/** What `write` sets on its entity, by field (nothing for a kind that does not say). */
export function valuesSetBy(write: OutboxWrite): Readonly<Record<string, unknown>> {
  const kind = kindOf(write);
  return kind?.sets && write.data !== undefined ? kind.sets(write.data) : {};
}
