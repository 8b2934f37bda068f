import { useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { contractActions, type ContractDetail } from '../../../contract/contracts';
import { useSession } from '../../auth/session-context';
import { useT } from '../../i18n/i18n-context';
import type { SubmitOutcome } from '../../offline/outbox';
import { useOutboxInstance } from '../../offline/outbox-react';
import type { NewWrite } from '../../offline/outbox-write';
import { versionToSend } from '../../offline/versioned-writes';
import { failureText } from '../../offline/write-kinds';
import { AlertDialog } from '../../ui/alert-dialog';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';
import { ActionMenu, type ActionMenuItem } from '../../ui/menu';
import { useNavigate } from '../../ui/navigation';
import { showNotice } from '../../ui/notices';
import { userDetailQueryOptions } from './api/user-queries';
import { contractScope, editDraft, tariffDraft, type ContractWriteData } from './api/user-writes';
import { useRedoPaymentSetup } from './components/redo-payment-setup';
import { deleteWrite, invitationWrite, terminateWrite, tariffWrite, type TariffFormValues } from './user-rules';

// Not part of the first screen, but fetched once it shows: a tariff change made offline right
// after opening the page works before the service worker has cached the app.
const TariffWizard = lazyDialog(() => import('./components/tariff-wizard').then((m) => m.TariffWizard));
const UserEditFlow = lazyDialog(() => import('./components/user-create-flow').then((m) => m.UserEditFlow));

/** A form to open at once (the outbox's 'Erneut bearbeiten'). */
export interface UserReopen {
  edit: 'tariff';
  draft?: string;
}

type Confirm = 'terminate' | 'delete' | null;
type Result = { action: 'terminate' | 'tariff' | 'delete' | 'invitation'; outcome: SubmitOutcome; draft: string } | null;

/**
 * The user page's actions menu (spec 2 §4) with the availability rule of the contract
 * (`contractActions`, the server's too): edit tariff, terminate, delete (admins), resend invitation.
 * Every one is an outbox write (queued offline, sent once, a refusal kept with its reason).
 * 'Edit' opens the creation wizard prefilled (UserEditFlow); 'redo payment details setup' is a plain
 * write that needs the network (`useRedoPaymentSetup`).
 */
export function UserActions({ contract, reopen, onReopened }: { contract: ContractDetail; reopen?: UserReopen; onReopened?: () => void }) {
  const t = useT();
  const { isAdmin } = useSession();
  const outbox = useOutboxInstance();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirm, setConfirm] = useState<Confirm>(null);
  // Each wizard gets the contract as the user saw it when opening (its version goes into the write).
  const tariffWizard = useDialogOpener();
  const [tariff, setTariff] = useState<{ seen: ContractDetail; values: TariffFormValues | null; replaces: string | null }>({
    seen: contract,
    values: null,
    replaces: null,
  });
  const editWizard = useDialogOpener();
  const [edit, setEdit] = useState<{ seen: ContractDetail; initial: ReturnType<typeof editDraft> }>({ seen: contract, initial: null });
  const [result, setResult] = useState<Result>(null);
  const available = contractActions(contract);
  const redo = useRedoPaymentSetup(contract);

  useEffect(() => {
    if (available.editTariff) TariffWizard.preload();
  }, [available.editTariff]);

  const openEdit = (seen: ContractDetail = contract, initial: ReturnType<typeof editDraft> = null) => {
    setEdit({ seen, initial });
    editWizard.open();
  };

  // Back from a refused edit (/nutzer/{key}#edit=<draft>): the wizard starts from the contract as the
  // server has it now (its version), with what the user entered.
  const hash = useRouterState({ select: (s) => s.location.hash });
  const reopenedEdit = useRef<string | null>(null);
  useEffect(() => {
    const draft = /^edit=(.+)$/.exec(hash)?.[1];
    if (!draft || draft === reopenedEdit.current) return;
    reopenedEdit.current = draft;
    const initial = editDraft(outbox.getSnapshot(), contract.contractKey, decodeURIComponent(draft));
    void queryClient
      .fetchQuery({ ...userDetailQueryOptions(contract.contractKey), staleTime: 0, retry: false })
      .catch(() => contract)
      .then((seen) => openEdit(seen, initial));
  });

  const openTariff = (seen: ContractDetail = contract, values: TariffFormValues | null = null, replaces: string | null = null) => {
    setTariff({ seen, values, replaces });
    tariffWizard.open();
  };

  // Back from a refused tariff change: the wizard starts from the contract as the server has it now, with what the user entered.
  const reopened = useRef(false);
  useEffect(() => {
    if (!reopen || reopened.current) return;
    reopened.current = true;
    const values = tariffDraft(outbox.getSnapshot(), contract.contractKey, reopen.draft);
    void queryClient
      .fetchQuery({ ...userDetailQueryOptions(contract.contractKey), staleTime: 0, retry: false })
      .catch(() => contract)
      .then((seen) => openTariff(seen, values, values ? (reopen.draft ?? null) : null));
    onReopened?.();
  });

  const submit = async (action: NonNullable<Result>['action'], write: NewWrite<ContractWriteData>, replaces: string | null = null) => {
    const refused = replaces
      ? outbox.getSnapshot().find((w) => w.state === 'failed' && (w.data as ContractWriteData | undefined)?.draft === replaces)
      : undefined;
    if (refused) await outbox.discard(refused.id);
    const outcome = await outbox.submit([write]);
    setResult({ action, outcome, draft: write.data.draft });
    if (outcome === 'queued') showNotice({ id: 'user-write', tone: 'info', message: t('outbox.notice.queued'), timeout: 6_000 });
    if (action === 'invitation' && outcome === 'saved')
      showNotice({ id: 'user-write', tone: 'success', message: t('users.actions.invitemailSent'), timeout: 6_000 });
    if (action === 'delete' && outcome !== 'failed') navigate?.('/nutzer');
  };

  const version = (seen: ContractDetail) => versionToSend(seen.version, contractScope(seen.contractKey), outbox.getSnapshot());

  const items: ActionMenuItem[] = [
    ...(available.edit ? [{ id: 'edit', label: t('users.actions.edit') }] : []),
    ...(available.editTariff ? [{ id: 'tariff', label: t('users.actions.editTariff') }] : []),
    ...(available.terminate ? [{ id: 'terminate', label: t('users.actions.terminate'), tone: 'danger' as const }] : []),
    ...(available.resendInvitation ? [{ id: 'invitation', label: t('users.actions.resendInvitation') }] : []),
    ...(available.menu && redo.item ? [redo.item] : []),
    ...(isAdmin ? [{ id: 'delete', label: t('users.actions.delete'), tone: 'danger' as const }] : []),
  ];

  // The contract is refreshed by the write kind once the server answered (applied or refused).
  const closeResult = () => setResult(null);

  return (
    <>
      {/* Spec 2 §4: the whole menu is hidden for AD_HOC users and ended contracts. The dialogs stay:
          'terminated, no access' shows after the refreshed contract has ended. */}
      {available.menu && items.length > 0 && (
        <ActionMenu
          items={items}
          onAction={(id) => {
            if (id === 'tariff') openTariff();
            else if (id === 'edit') openEdit();
            else if (id === 'invitation') void submit('invitation', invitationWrite(contract));
            else if (id === redo.item?.id) redo.start();
            else setConfirm(id as Confirm);
          }}
        />
      )}
      <ConfirmDialog
        confirm={confirm}
        contract={contract}
        onCancel={() => setConfirm(null)}
        onConfirm={(action) => {
          setConfirm(null);
          if (action === 'terminate') void submit('terminate', terminateWrite(contract, version(contract)));
          else void submit('delete', deleteWrite(contract));
        }}
      />
      <TariffWizard
        key={`tariff-${tariffWizard.opening}`}
        opener={tariffWizard}
        contract={tariff.seen}
        initialValues={tariff.values}
        onSubmit={async (values) => {
          tariffWizard.close();
          await submit('tariff', tariffWrite(tariff.seen, version(tariff.seen), values), tariff.replaces);
        }}
      />
      <UserEditFlow key={`edit-${editWizard.opening}`} opener={editWizard} contract={edit.seen} initial={edit.initial} />
      <ResultDialogs result={result} onClose={closeResult} />
      {redo.dialogs}
    </>
  );
}

/** 'Terminate' and 'delete' ask first (spec 2 §4), naming the user. */
function ConfirmDialog({
  confirm,
  contract,
  onCancel,
  onConfirm,
}: {
  confirm: Confirm;
  contract: ContractDetail;
  onCancel: () => void;
  onConfirm: (action: NonNullable<Confirm>) => void;
}) {
  const t = useT();
  return (
    <Dialog
      isOpen={confirm !== null}
      onOpenChange={(open) => !open && onCancel()}
      title={confirm === 'delete' ? t('users.actions.deleteTitle') : t('users.actions.terminateTitle')}
      size="sm"
      role="alertdialog"
      actions={
        <>
          <Button variant="secondary" onPress={onCancel}>
            {t('ui.common.cancel')}
          </Button>
          <Button variant="danger" onPress={() => confirm && onConfirm(confirm)}>
            {confirm === 'delete' ? t('users.actions.deleteConfirm') : t('users.actions.terminateConfirm')}
          </Button>
        </>
      }
    >
      <p>
        {t(confirm === 'delete' ? 'users.actions.deleteText' : 'users.actions.terminateText', {
          name: `${contract.firstName} ${contract.lastName}`,
          id: contract.endCustomerId,
        })}
      </p>
    </Dialog>
  );
}

/** How a write went: terminated or tariff saved, or refused with the outbox's reason. */
function ResultDialogs({ result, onClose }: { result: Result; onClose: () => void }) {
  const t = useT();
  const outbox = useOutboxInstance();
  const refused =
    result?.outcome === 'failed'
      ? outbox.getSnapshot().find((w) => (w.data as ContractWriteData | undefined)?.draft === result.draft)
      : undefined;
  return (
    <>
      <AlertDialog
        isOpen={result?.action === 'terminate' && result.outcome === 'saved'}
        onClose={onClose}
        variant="success"
        title={t('users.actions.terminatedTitle')}
      >
        <p>{t('users.actions.terminatedText')}</p>
      </AlertDialog>
      <AlertDialog
        isOpen={result?.action === 'tariff' && result.outcome === 'saved'}
        onClose={onClose}
        variant="success"
        title={t('users.tariff.savedTitle')}
      >
        <p>{t('users.tariff.savedText')}</p>
      </AlertDialog>
      <AlertDialog isOpen={result?.outcome === 'failed'} onClose={onClose} variant="error" title={t('users.actions.failedTitle')}>
        <div className="flex flex-col gap-2">
          <p>{refused ? failureText(refused, t) : t('errors.somethingWrong')}</p>
          <p className="text-muted">{t('users.actions.failedHint')}</p>
        </div>
      </AlertDialog>
    </>
  );
}
