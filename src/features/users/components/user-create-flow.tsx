import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ContractDetail } from '../../../../contract/contracts';
import { useT } from '../../../i18n/i18n-context';
import type { SubmitOutcome } from '../../../offline/outbox';
import { useOutboxInstance } from '../../../offline/outbox-react';
import { versionToSend } from '../../../offline/versioned-writes';
import { describeFailure } from '../../../offline/write-kinds';
import { AlertDialog } from '../../../ui/alert-dialog';
import { showNotice } from '../../../ui/notices';
import { locationDropdownQueryOptions } from '../../locations/api/location-queries';
import { operatorDetailQueryOptions } from '../../operators/api/operator-queries';
import { contractScope, createRefusal, type CreateRefusal, type CreateWriteData, type EditWriteData } from '../api/user-writes';
import { createWrite, editWrite, isAdminUserType, type UserFormValues } from '../user-create-rules';
import { UserWizard } from './user-wizard';

/**
 * What the wizard reads before its first field makes sense (whether the operator types its ids
 * itself, its payment preference, the locations): fetched once the list shows, so a user created
 * offline still gets the operator's rules (the operators and locations roots are kept offline).
 */
export function warmCreateWizard(queryClient: QueryClient, cpoId: string | undefined): void {
  if (cpoId) void queryClient.ensureQueryData(operatorDetailQueryOptions(cpoId)).catch(() => undefined);
  void queryClient.ensureQueryData(locationDropdownQueryOptions()).catch(() => undefined);
}

type Result = { outcome: SubmitOutcome; draft: string; rfidFollows: boolean } | null;

export interface UserCreateFlowProps {
  isOpen: boolean;
  onClose: () => void;
  /** A refused creation to make again ('Erneut bearbeiten'): what was entered and the write it replaces. */
  initial?: { values: UserFormValues; pdfBase64: string | null; writeId: string } | null;
}

/**
 * The creation wizard as an outbox write (spec 2 §2, §8): online it answers saved ('contract done'
 * for APP, 'RFID follows' otherwise) or refused (the spec's dialog for the code); offline it is
 * queued with the PDF in IndexedDB and sent once when the device is back online.
 */
export function UserCreateFlow({ isOpen, onClose, initial }: UserCreateFlowProps) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [result, setResult] = useState<Result>(null);

  const submit = async (values: UserFormValues, pdfBase64: string | null) => {
    // Saving a refused creation again replaces it (it would otherwise stay in the outbox).
    if (initial?.writeId && outbox.getSnapshot().some((w) => w.id === initial.writeId)) await outbox.discard(initial.writeId);
    const write = createWrite(values, pdfBase64);
    const outcome = await outbox.submit([write]);
    onClose();
    setResult({ outcome, draft: write.data.draft, rfidFollows: isAdminUserType(values.userType) || values.authType !== 'APP' });
    if (outcome === 'queued') showNotice({ id: 'user-create', tone: 'info', message: t('outbox.notice.queued'), timeout: 6_000 });
  };

  const refused =
    result?.outcome === 'failed'
      ? outbox.getSnapshot().find((w) => (w.data as CreateWriteData | undefined)?.draft === result.draft)
      : undefined;
  const refusal = createRefusal(refused?.lastError);

  // Spec 2 §4's refreshed contract list: the write kind refreshes it once the server answered.
  const close = () => setResult(null);

  return (
    <>
      <UserWizard isOpen={isOpen} initial={initial} onClose={onClose} onSubmit={submit} />
      <AlertDialog isOpen={result?.outcome === 'saved'} onClose={close} variant="success" title={t('users.create.savedTitle')}>
        <p>{result?.rfidFollows ? t('users.create.rfidFollows') : t('users.create.contractDone')}</p>
      </AlertDialog>
      <AlertDialog isOpen={result?.outcome === 'failed'} onClose={close} variant="error" title={t('users.create.failedTitle')}>
        <div className="flex flex-col gap-3" data-testid="create-error">
          <RefusalText refusal={refusal} />
          <p className="text-muted">{t('users.create.failedHint')}</p>
        </div>
      </AlertDialog>
    </>
  );
}

function RefusalText({ refusal, fallback }: { refusal: CreateRefusal; fallback?: string | null }) {
  const t = useT();
  switch (refusal.kind) {
    case 'rfidExists':
    case 'serialInUse':
      return (
        <>
          <p>{t(refusal.kind === 'rfidExists' ? 'users.create.errors.rfidExistsTitle' : 'users.create.errors.serialInUseTitle')}</p>
          <table className="w-full text-left text-sm" data-testid="rfid-conflicts">
            <thead>
              <tr className="border-b border-border">
                <th scope="col" className="py-1 pr-4 font-semibold">
                  {t('users.fields.endCustomerId')}
                </th>
                <th scope="col" className="py-1 font-semibold">
                  {t('users.create.errors.tagOrSerial')}
                </th>
              </tr>
            </thead>
            <tbody>
              {refusal.rows.map((row) => (
                <tr key={`${row.field}:${row.value}`} className="border-b border-border last:border-b-0">
                  <td className="py-1 pr-4">{row.endCustomerId ?? t('users.create.errors.inRequest')}</td>
                  <td className="py-1">
                    {row.value} ({t(row.field === 'rfidTag' ? 'users.fields.rfidTags' : 'users.fields.rfidSerials')})
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
    case 'serialNotExists':
      return <p>{t('users.create.errors.serialNotExists', { list: refusal.serials.join(', ') })}</p>;
    case 'emailInUse':
      return <p>{t('users.create.errors.emailInUse', { id: refusal.endCustomerId })}</p>;
    case 'endCustomerIdInUse':
      return <p>{t('users.create.errors.endCustomerIdInUse', { id: refusal.endCustomerId })}</p>;
    case 'unknownParkingLots':
      return <p>{t('dataRules.unknownParkingLots', { lots: refusal.lots.join(', ') })}</p>;
    case 'emailTaken':
    case 'pdfUnreadable':
    case 'pdfActiveContent':
    case 'sepaNeedsCreditorId':
      return <p>{t(`users.create.errors.${refusal.kind}`)}</p>;
    default:
      return <p>{fallback || t('errors.somethingWrong')}</p>;
  }
}

export interface UserEditFlowProps {
  isOpen: boolean;
  /** The contract as the user saw it when opening the wizard (its version goes with the write). */
  contract: ContractDetail;
  onClose: () => void;
  initial?: { values: UserFormValues; pdfBase64: string | null; writeId: string } | null;
}

/**
 * 'Bearbeiten' (spec 2 §2): the creation wizard prefilled from the contract, sent as PUT
 * /update-contract through the outbox with the version the user saw (a colleague's change meanwhile
 * is refused with the contract as it is now).
 */
export function UserEditFlow({ isOpen, contract, onClose, initial }: UserEditFlowProps) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [result, setResult] = useState<{ outcome: SubmitOutcome; draft: string } | null>(null);

  const submit = async (values: UserFormValues, pdfBase64: string | null) => {
    if (initial?.writeId && outbox.getSnapshot().some((w) => w.id === initial.writeId)) await outbox.discard(initial.writeId);
    const write = editWrite(
      contract,
      versionToSend(contract.version, contractScope(contract.contractKey), outbox.getSnapshot()),
      values,
      pdfBase64,
    );
    const outcome = await outbox.submit([write]);
    onClose();
    setResult({ outcome, draft: write.data.draft });
    if (outcome === 'queued') showNotice({ id: 'user-edit', tone: 'info', message: t('outbox.notice.queued'), timeout: 6_000 });
  };

  const refused =
    result?.outcome === 'failed'
      ? outbox.getSnapshot().find((w) => (w.data as EditWriteData | undefined)?.draft === result.draft)
      : undefined;

  // The contract and the lists are refreshed by the write kind once the server answered.
  const close = () => setResult(null);

  return (
    <>
      <UserWizard isOpen={isOpen} contract={contract} initial={initial} onClose={onClose} onSubmit={submit} />
      <AlertDialog isOpen={result?.outcome === 'saved'} onClose={close} variant="success" title={t('users.edit.savedTitle')}>
        <p>{t('users.edit.savedText')}</p>
      </AlertDialog>
      <AlertDialog isOpen={result?.outcome === 'failed'} onClose={close} variant="error" title={t('users.edit.failedTitle')}>
        <div className="flex flex-col gap-3" data-testid="edit-error">
          <RefusalText refusal={createRefusal(refused?.lastError)} fallback={refused ? describeFailure(refused, t) : null} />
          <p className="text-muted">{t('users.create.failedHint')}</p>
        </div>
      </AlertDialog>
    </>
  );
}
