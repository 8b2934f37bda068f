import { randomBytes } from 'node:crypto';
import { hashStationPassword } from '../auth/passwords';
import { notFound, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { mayAskFor, type ConfigurationKey, type StationOperationAnswer, type StationOperationBody } from '../../../contract/ocpp';
import { ocppCallFor, outcomeOf } from './operation-calls';
import { setStationPasswordHash } from './queries';
import { ocppRuntime } from './runtime';
import { visibleConnector } from './station-queries';

/**
 * One operation asked by a dashboard user (spec 2 §2, §4, §7): in scope, allowed for the caller's
 * role, the station neither OFFLINE nor INACTIVE; recorded, sent, and answered with what the
 * station said, or why it could not say anything.
 */
export async function runStationOperation(
  env: Env,
  db: Db,
  auth: { scope: Scope; isAdmin: boolean; user: { email: string } },
  body: StationOperationBody,
): Promise<StationOperationAnswer> {
  const connector = await visibleConnector(db, auth.scope, body.connectorId);
  if (!connector || connector.cpId !== body.cpId) throw notFound('connector', body.connectorId);
  if (!mayAskFor(body.connectorOperationType, auth.isAdmin))
    throw new ApiError(403, 'FORBIDDEN', 'Only platform admins may ask for this operation');
  if (connector.status === 'OFFLINE' || connector.status === 'INACTIVE') {
    throw new ApiError(409, 'STATION_UNAVAILABLE', 'The station is offline or inactive', { connectorStatus: connector.status });
  }
  const call = ocppCallFor(body, connector.n);
  const row = await ocppRuntime(env, db).operations.request({
    cpId: connector.cpId,
    connectorId: connector.connectorId,
    type: body.connectorOperationType,
    action: call.action,
    params: call.params,
    requestedBy: auth.user.email,
  });
  if (row.status === 'offline') throw new ApiError(409, 'STATION_NOT_CONNECTED', 'The station is not connected', { operationId: row.id });
  if (row.status === 'timed_out')
    throw new ApiError(409, 'STATION_NO_ANSWER', 'The station did not answer in time', { operationId: row.id });
  if (row.status === 'error') {
    throw new ApiError(409, 'STATION_CALL_FAILED', 'The station answered with an error', {
      operationId: row.id,
      ocppErrorCode: row.errorCode,
    });
  }
  const answer = row.answer as { configurationKey?: ConfigurationKey[]; unknownKey?: string[] } | null;
  return {
    operationId: row.id,
    status: row.status,
    stationStatus: outcomeOf(answer).stationStatus,
    ...(call.action === 'GetConfiguration'
      ? {
          configuration: (answer?.configurationKey ?? []).map((k) => ({ key: k.key, value: k.value ?? null, readonly: k.readonly })),
          unknownKeys: answer?.unknownKey ?? [],
        }
      : {}),
  };
}

/**
 * A new password for a station (admins), shown once: 24 random bytes as base64url, 32 characters,
 * inside OCPP 1.6's 16 to 40 for a basic-auth password. The station's open connection stays; the
 * next connection needs the new one.
 */
export async function rotateStationPassword(db: Db, cpId: string): Promise<{ cpId: string; password: string }> {
  const password = randomBytes(24).toString('base64url');
  await setStationPasswordHash(db, cpId, hashStationPassword(password));
  return { cpId, password };
}
