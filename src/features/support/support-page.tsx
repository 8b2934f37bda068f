import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FileTrigger } from 'react-aria-components/FileTrigger';
import { useT } from '../../i18n/i18n-context';
import { AlertDialog } from '../../ui/alert-dialog';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import { TextArea } from '../../ui/text-area';
import { TextField } from '../../ui/text-field';
import { CloseIcon } from '../../ui/icons';
import { fromSchema } from '../../ui/validation';
import { bindField, useForm } from '../../ui/use-form';
import { ApiError } from '../../api/errors';
import { useSession } from '../../auth/session-context';
import { mailSendRequestSchema, SUPPORT_SUBJECT_MAX } from '../../../contract/auth';
import { SUPPORT_ACCEPT, checkAttachment, toByteValues } from './attachment';
import { sendSupportMailMutation } from './api/support-api';

// The contract's limits (contract/auth.ts), which the server checks too.
const mail = mailSendRequestSchema.shape;
const supportRules = { subject: [fromSchema(mail.subject)], message: [fromSchema(mail.body)] };

/** What the server says about an attachment, as the message under the file field. */
const FILE_ERRORS: Record<string, string | undefined> = {
  UNSUPPORTED_FILE_TYPE: 'support.invalidFile',
  PAYLOAD_TOO_LARGE: 'support.fileTooLarge',
  UPLOAD_NOT_READABLE: 'support.fileUnreadable',
  IMAGE_TOO_LARGE: 'support.imageTooLarge',
  UPLOAD_ACTIVE_CONTENT: 'support.activeContent',
};

export function SupportPage() {
  const t = useT();
  const { claims } = useSession();
  const form = useForm({ subject: '', message: '' }, supportRules);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const send = useMutation(sendSupportMailMutation());
  const [outcome, setOutcome] = useState<'sent' | 'failed' | null>(null);
  const subject = form.field('subject');
  const message = form.field('message');

  const pick = (files: FileList | null) => {
    const chosen = files?.[0];
    if (!chosen) return;
    const check = checkAttachment(chosen);
    if (check !== 'ok') {
      setFile(null);
      setFileError(t(check === 'tooLarge' ? 'support.fileTooLarge' : 'support.invalidFile'));
      return;
    }
    setFileError(null);
    setFile(chosen);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form.trySubmit() || !claims) return;
    setPending(true);
    try {
      await send.mutateAsync({
        subject: form.values.subject.trim(),
        body: form.values.message.trim(),
        attachments: file ? await toByteValues(file) : undefined,
        attachmentName: file?.name,
        senderEmailAddress: claims.email,
        senderFullName: claims.name,
      });
      form.reset();
      setFile(null);
      setOutcome('sent');
    } catch (error) {
      const fileProblem = error instanceof ApiError ? FILE_ERRORS[error.errorCodeResponse ?? ''] : undefined;
      if (fileProblem) setFileError(t(fileProblem));
      setOutcome('failed');
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={t('support.title')} description={t('support.intro')} />
      <form noValidate onSubmit={submit} className="flex flex-col gap-5 rounded-lg border border-border bg-surface p-5">
        <TextField label={t('support.subject')} isRequired maxLength={SUPPORT_SUBJECT_MAX} {...bindField(t, subject)} />
        <TextArea label={t('support.message')} isRequired rows={12} {...bindField(t, message)} />
        <div className="flex flex-col gap-2">
          <span className="text-sm font-medium text-fg" id="support-attachment-label">
            {t('support.attachment')}
          </span>
          <div className="flex flex-wrap items-center gap-3">
            <FileTrigger acceptedFileTypes={SUPPORT_ACCEPT} onSelect={pick}>
              <Button variant="secondary" aria-describedby="support-attachment-hint">
                {t('support.chooseFile')}
              </Button>
            </FileTrigger>
            {file && (
              <span className="inline-flex items-center gap-1 rounded-full bg-surface-2 py-1 pl-3 text-sm">
                <span className="max-w-[240px] truncate" data-testid="support-file">
                  {file.name}
                </span>
                <Button variant="ghost" size="sm" iconOnly aria-label={t('support.removeFile')} onPress={() => setFile(null)}>
                  <CloseIcon size={16} />
                </Button>
              </span>
            )}
          </div>
          <p id="support-attachment-hint" className="text-sm text-muted">
            {t('support.attachmentHint')}
          </p>
          {fileError && (
            <p role="alert" className="text-sm font-medium text-danger">
              {fileError}
            </p>
          )}
        </div>
        <div>
          <Button type="submit" isPending={pending}>
            {t('support.send')}
          </Button>
        </div>
      </form>
      <AlertDialog
        isOpen={outcome !== null}
        variant={outcome === 'sent' ? 'success' : 'warning'}
        title={outcome === 'sent' ? t('support.sentTitle') : t('support.failedTitle')}
        onClose={() => setOutcome(null)}
      >
        {outcome === 'sent' ? t('support.sentText') : t('support.failedText')}
      </AlertDialog>
    </div>
  );
}
