import { createHash } from 'node:crypto';

/**
 * The hex SHA-256 under which a secret or a request is stored instead of itself (refresh tokens,
 * reset links, idempotency keys' requests): a database leak yields nothing usable.
 */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
