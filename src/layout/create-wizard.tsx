import { useState, type ReactNode } from 'react';
import { isNetworkError } from '../api/errors';
import { useT } from '../i18n/i18n-context';
import { AlertDialog } from '../ui/alert-dialog';
import { Wizard, type WizardProps } from '../ui/wizard';

/** What the error dialog says about a refusal: a text (shown as a paragraph) or a title and a body of its own. */
export type FailureMessage = string | { title: string; body: ReactNode };

export interface CreateWizardProps<A> extends Omit<WizardProps, 'onSubmit' | 'isSubmitting'> {
  /** Sends the area's mutation once, e.g. `() => create.mutateAsync(payload)`; resolves with the answer. */
  send: () => Promise<A>;
  /** The mutation's `isPending`: the last step's button shows pending meanwhile. */
  isSending: boolean;
  successTitle: string;
  /**
   * The success dialog's body, made from the answer when it arrives: the wizard is cleared by then,
   * so what it shows of the entered values is taken at that moment.
   */
  successBody: (answer: A) => ReactNode;
  /**
   * The area's error codes → what the error dialog says, for any refusal (not a lost connection,
   * which reads 'offline' and keeps the wizard to send again). Undefined: 'something went wrong'.
   */
  failure?: (error: unknown) => FailureMessage | undefined;
}

type Outcome = { kind: 'created'; body: ReactNode } | { kind: 'failed'; title: string; body: ReactNode } | null;

/**
 * A wizard that sends one request at the end and says how it went: on success it closes (and so is
 * cleared) and a success dialog shows `successBody`; on a failure the error dialog says what
 * `failure` makes of it. The same frame for every 'create' (and one-off edit) in the app, so each
 * area brings only its steps, its mutation, its success text and its error codes.
 */
export function CreateWizard<A>({ send, isSending, successTitle, successBody, failure, onClose, ...wizard }: CreateWizardProps<A>) {
  const t = useT();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async () => {
    let answer: A;
    try {
      answer = await send();
    } catch (error) {
      const offline = isNetworkError(error);
      const message = offline ? t('errors.offline') : (failure?.(error) ?? t('errors.somethingWrong'));
      setOutcome(
        typeof message === 'string'
          ? { kind: 'failed', title: t('errors.title'), body: <p>{message}</p> }
          : { kind: 'failed', title: message.title, body: message.body },
      );
      return;
    }
    onClose();
    setOutcome({ kind: 'created', body: successBody(answer) });
  };

  return (
    <>
      <Wizard {...wizard} onClose={onClose} onSubmit={submit} isSubmitting={isSending} />
      <AlertDialog isOpen={outcome?.kind === 'created'} onClose={() => setOutcome(null)} variant="success" title={successTitle}>
        {outcome?.kind === 'created' && outcome.body}
      </AlertDialog>
      <AlertDialog
        isOpen={outcome?.kind === 'failed'}
        onClose={() => setOutcome(null)}
        variant="error"
        title={outcome?.kind === 'failed' ? outcome.title : t('errors.title')}
      >
        {outcome?.kind === 'failed' && outcome.body}
      </AlertDialog>
    </>
  );
}
