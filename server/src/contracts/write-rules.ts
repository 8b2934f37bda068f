import type { ContractWriteAnswer } from '../../../contract/contracts';
import { lockAtVersion, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { getContractDetail, lockContract, type ContractRowDb } from './queries';

/** What every write of a contract shares: its refusals, how it finds the contract it changes, and its answer. */

export const notAllowedNow = (why: string) => new ApiError(409, 'CONTRACT_STATUS_DATA_INCONSISTENCY', why);
export const fieldError = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', `${path}: ${message}`, undefined, [{ path, message }]);

/** The contract a write names, locked, in scope and at the version the user saw (`lockAtVersion`). */
export const contractForWrite = (db: Db, scope: Scope, contractKey: string, expectedVersion: number | undefined): Promise<ContractRowDb> =>
  lockAtVersion('contract', contractKey, expectedVersion, {
    lock: (key) => lockContract(db, scope, key),
    current: () => getContractDetail(db, scope, contractKey),
  });

export const writeAnswer = (row: ContractRowDb): ContractWriteAnswer => ({
  contractKey: row.contractKey,
  endCustomerId: row.endCustomerId,
  contractStatus: row.contractStatus,
  authType: row.authType,
  version: row.version,
});
