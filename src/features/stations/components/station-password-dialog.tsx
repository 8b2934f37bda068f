import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useT } from '../../../i18n/i18n-context';
import { useOnlineStatus } from '../../../offline/online-status';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { nativeInputClassName } from '../../../ui/text-field';
import { stationPasswordMutation } from '../api/station-ocpp-queries';
import { operationFailure } from '../station-operations';

export interface StationPasswordDialogProps {
  isOpen: boolean;
  onClose: () => void;
  connectorId: string;
  cpId: string;
  /** Whether the station has a password already (then it is replaced). */
  hasPassword: boolean;
}

/**
 * The admin sets or replaces a station's OCPP password (HTTP Basic, security profile 1). The server
 * keeps only its hash, so it is shown here once, with a copy button; the station's open connection
 * stays, its next one needs the new password.
 */
export function StationPasswordDialog({ isOpen, onClose, connectorId, cpId, hasPassword }: StationPasswordDialogProps) {
  const t = useT();
  const online = useOnlineStatus();
  const mutation = useMutation(stationPasswordMutation());
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const password = mutation.data?.password;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(password ?? '');
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title={t(hasPassword ? 'ocpp.password.rotateTitle' : 'ocpp.password.setTitle', { cpId })}
      size="md"
      // A click beside it must not lose a password that is shown only once.
      isDismissable={false}
      actions={
        password ? (
          <Button onPress={onClose}>{t('ocpp.password.done')}</Button>
        ) : (
          <>
            <Button variant="secondary" onPress={onClose} isDisabled={mutation.isPending}>
              {t('ui.common.cancel')}
            </Button>
            <Button onPress={() => mutation.mutate(connectorId)} isPending={mutation.isPending} isDisabled={!online}>
              {t(hasPassword ? 'ocpp.password.rotate' : 'ocpp.password.set')}
            </Button>
          </>
        )
      }
    >
      {password ? (
        <div className="flex flex-col gap-3">
          <p role="status">{t('ocpp.password.shownOnce')}</p>
          <label htmlFor="station-password" className="text-sm font-medium">
            {t('ocpp.password.label')}
          </label>
          <div className="flex flex-col gap-2 sm:flex-row">
            <input
              id="station-password"
              readOnly
              value={password}
              onFocus={(e) => e.currentTarget.select()}
              className={`${nativeInputClassName} font-mono`}
              data-testid="station-password"
            />
            <Button variant="secondary" onPress={() => void copy()}>
              {t('ocpp.password.copy')}
            </Button>
          </div>
          <p aria-live="polite" className="text-sm text-muted empty:hidden">
            {copied === 'yes' ? t('ocpp.password.copied') : copied === 'no' ? t('ocpp.password.copyFailed') : ''}
          </p>
          <p className="text-sm text-muted">{t('ocpp.password.configureHint', { cpId })}</p>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <p>{t(hasPassword ? 'ocpp.password.rotateIntro' : 'ocpp.password.setIntro')}</p>
          {!online ? (
            <p role="status" className="rounded-md bg-warning-soft px-3 py-2 text-warning">
              {t('ocpp.dialog.needsNetwork')}
            </p>
          ) : null}
          {mutation.isError ? (
            <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-danger">
              {t(operationFailure(mutation.error).id)}
            </p>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}
