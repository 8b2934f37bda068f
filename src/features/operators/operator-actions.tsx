import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { OperatorDetail } from '../../../contract/operators';
import { useT } from '../../i18n/i18n-context';
import type { SubmitOutcome } from '../../offline/outbox';
import { useOutboxInstance } from '../../offline/outbox-react';
import { failureText } from '../../offline/write-kinds';
import { AlertDialog } from '../../ui/alert-dialog';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';
import { ActionMenu } from '../../ui/menu';
import { operatorDetailQueryOptions } from './api/operator-queries';
import { draftValues, type OperatorEdit, type OperatorWriteData } from './api/operator-writes';
import { prefixTakenOf } from './api/prefix-taken';

// Not part of the first screen, but fetched once it shows (see the effect below): an edit made
// offline right after opening the page works before the service worker has cached the app.
const OperatorEditDialog = lazyDialog(() => import('./components/operator-edit-dialogs').then((m) => m.OperatorEditDialog));

/** A form to open at once (the outbox's 'Erneut bearbeiten'): which edit, and the write with what the user entered. */
export interface OperatorReopen {
  edit: OperatorEdit;
  draft?: string;
}

export interface OperatorActionsProps {
  operator: OperatorDetail;
  reopen?: OperatorReopen;
  /** Called once `reopen` has opened its form (the route drops it from the URL). */
  onReopened?: () => void;
}

type Result = { outcome: SubmitOutcome; draft: string } | null;

/** The operator page's Actions menu (spec 3 §2): edit operator info, edit invoice template, edit ERP info. */
export function OperatorActions({ operator, reopen, onReopened }: OperatorActionsProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const outbox = useOutboxInstance();
  const [edit, setEdit] = useState<OperatorEdit>('address');
  const editor = useDialogOpener();
  // The operator as the user saw it when opening (its version goes into the write); a new opening
  // mounts the form afresh (the opening is its key).
  const [frozen, setFrozen] = useState(operator);
  const [initial, setInitial] = useState<Record<string, string> | null>(null);
  const [replaces, setReplaces] = useState<string | null>(null);
  const [takenPrefixes, setTakenPrefixes] = useState<string[]>([]);
  const [result, setResult] = useState<Result>(null);

  useEffect(() => OperatorEditDialog.preload(), []);

  const open = (
    next: OperatorEdit,
    values: Record<string, string> | null = null,
    seen: OperatorDetail = operator,
    draft: string | null = null,
    taken: string[] = [],
  ) => {
    setFrozen(seen);
    setTakenPrefixes(taken);
    setInitial(values);
    setReplaces(draft);
    setEdit(next);
    editor.open();
  };

  // Back from a refused write: the form starts from the operator as the server has it now (the
  // colleague's change, and its version), with what the user entered on top.
  const reopened = useRef(false);
  useEffect(() => {
    if (!reopen || reopened.current) return;
    reopened.current = true;
    const values = draftValues(outbox.getSnapshot(), operator.cpoId, reopen.edit, reopen.draft);
    // A write refused for a prefix another operator has: the form says so at the field.
    const refusedWrite = outbox.getSnapshot().find((w) => (w.data as OperatorWriteData | undefined)?.draft === reopen.draft);
    const taken = prefixTakenOf(refusedWrite?.lastError);
    void queryClient
      .fetchQuery({ ...operatorDetailQueryOptions(operator.cpoId), staleTime: 0, retry: false })
      .catch(() => operator)
      .then((seen) =>
        open(
          reopen.edit,
          values,
          seen,
          values ? (reopen.draft ?? null) : null,
          taken !== null ? [taken || (values?.billNumberPrefix ?? '')] : [],
        ),
      );
    onReopened?.();
  });

  const onQueued = (outcome: SubmitOutcome, draft: string) => {
    editor.close();
    setResult({ outcome, draft });
  };

  // Spec 3 §2's refreshed data: the write kind refreshes the operator once the server answered.
  const closeResult = () => setResult(null);

  const refused =
    result?.outcome === 'failed'
      ? outbox.getSnapshot().find((w) => (w.data as OperatorWriteData | undefined)?.draft === result.draft)
      : undefined;

  return (
    <>
      <ActionMenu
        items={[
          { id: 'address', label: t('operators.actions.address') },
          { id: 'billing', label: t('operators.actions.billing') },
          { id: 'erp', label: t('operators.actions.erp') },
        ]}
        onAction={(id) => open(id as OperatorEdit)}
      />
      <OperatorEditDialog
        key={editor.opening}
        opener={editor}
        edit={edit}
        operator={frozen}
        initialValues={initial}
        replaces={replaces}
        takenPrefixes={takenPrefixes}
        onQueued={onQueued}
      />
      <AlertDialog
        isOpen={result?.outcome === 'saved' || result?.outcome === 'queued'}
        onClose={closeResult}
        variant="success"
        title={result?.outcome === 'queued' ? t('operators.edit.queuedTitle') : t('operators.edit.savedTitle')}
      >
        <p>{result?.outcome === 'queued' ? t('outbox.notice.queued') : t('operators.edit.savedText')}</p>
      </AlertDialog>
      <AlertDialog isOpen={result?.outcome === 'failed'} onClose={closeResult} variant="error" title={t('operators.edit.failedTitle')}>
        <div className="flex flex-col gap-2">
          <p>{refused ? failureText(refused, t) : t('errors.somethingWrong')}</p>
          <p className="text-muted">{t('operators.edit.failedHint')}</p>
        </div>
      </AlertDialog>
    </>
  );
}
