import type { z } from 'zod/mini';
import {
  berlinDate,
  contractActions,
  tariffChangeIssues,
  type changeTariffBodySchema,
  type ContractWriteAnswer,
  type terminateContractBodySchema,
} from '../../../contract/contracts';
import { foundOr404, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { deleteContractRow, hasBills, lockContract, releaseCards, writeContract } from './queries';
import { dropPendingTariffChanges, insertPendingTariffChange, pendingTariffChange } from './tariff-history';
import { contractForWrite, notAllowedNow, writeAnswer } from './write-rules';

/** The writes of a contract after its creation and edits (spec 2 §4): terminate, change the tariff, delete. */

/** Terminate (spec 2 §4): only an ACTIVE contract; it becomes EXPIRED and ends today unless it ended earlier. */
export async function terminateContract(
  db: Db,
  scope: Scope,
  body: z.output<typeof terminateContractBodySchema>,
  expectedVersion: number | undefined,
): Promise<ContractWriteAnswer> {
  const before = await contractForWrite(db, scope, body.contractKey, expectedVersion);
  if (!contractActions({ ...before, contractChangeTariff: null }).terminate)
    throw notAllowedNow(`Contract ${before.contractKey} is not active`);
  const today = berlinDate(new Date());
  let endDate = before.endDate && before.endDate < today ? before.endDate : today;
  if (before.startDate && endDate < before.startDate) endDate = before.startDate;
  const row = await writeContract(db, before.contractKey, { contractStatus: 'EXPIRED', endDate });
  // A tariff change planned for after the end would otherwise still show (and apply) on an ended contract.
  await dropPendingTariffChanges(db, before.contractKey);
  return writeAnswer(row);
}

/** A tariff change for the 1st of a month (spec 2 §4-5): ACTIVE, billed, and none pending yet. */
export async function changeTariff(
  db: Db,
  scope: Scope,
  body: z.output<typeof changeTariffBodySchema>,
  expectedVersion: number | undefined,
): Promise<ContractWriteAnswer> {
  const before = await contractForWrite(db, scope, body.contractKey, expectedVersion);
  const pending = await pendingTariffChange(db, before.contractKey);
  if (!contractActions({ ...before, contractChangeTariff: pending ? ({} as never) : null }).editTariff)
    throw notAllowedNow(`The tariff of contract ${before.contractKey} cannot be changed now`);
  const issues = tariffChangeIssues(body, berlinDate(new Date()));
  if (issues.length > 0)
    throw new ApiError(400, 'VALIDATION_ERROR', issues.map((i) => `${i.path}: ${i.message}`).join('; '), undefined, issues);
  await insertPendingTariffChange(db, {
    contractKey: before.contractKey,
    newTariffDate: body.newTariffDate,
    newTariffCancellationDate: body.newTariffCancellationDate,
    fixTariff: body.fixTariff.toFixed(2),
    varTariff: body.varTariff.toFixed(2),
    onboardingFee: body.onboardingFee.toFixed(2),
    fixTariffPerChargingRequest: body.fixTariffPerChargingRequest.toFixed(2),
  });
  const row = await writeContract(db, before.contractKey, {});
  return writeAnswer(row);
}

/** Admins only (spec 2 §4). A contract with bills stays (they are accounting records): terminate it instead. */
export async function deleteContract(db: Db, scope: Scope, contractKey: string): Promise<{ contractKey: string }> {
  await foundOr404('contract', contractKey, lockContract(db, scope, contractKey));
  if (await hasBills(db, contractKey)) throw notAllowedNow(`Contract ${contractKey} has bills and cannot be deleted`);
  await releaseCards(db, contractKey);
  await deleteContractRow(db, contractKey);
  return { contractKey };
}
