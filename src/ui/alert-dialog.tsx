import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { cx } from './class-names';
import { Dialog } from './dialog';
import { ErrorIcon, SuccessIcon, WarningIcon } from './icons';

export type AlertVariant = 'success' | 'warning' | 'error';

const look: Record<AlertVariant, { icon: typeof SuccessIcon; className: string }> = {
  success: { icon: SuccessIcon, className: 'bg-success-soft text-success' },
  warning: { icon: WarningIcon, className: 'bg-warning-soft text-warning' },
  error: { icon: ErrorIcon, className: 'bg-danger-soft text-danger' },
};

export interface AlertDialogProps {
  isOpen: boolean;
  onClose: () => void;
  variant: AlertVariant;
  /** From the caller's i18n keys ('Fehler', 'Anfrage gesendet', …); defaults to a generic title per variant. */
  title?: ReactNode;
  children?: ReactNode;
  /** Label of the single button; defaults to 'OK'. */
  okLabel?: string;
}

/**
 * Outcome message with one OK button (role=alertdialog, so it is announced at once). The OK button
 * takes focus; Escape and the backdrop also close it.
 */
export function AlertDialog({ isOpen, onClose, variant, title, children, okLabel }: AlertDialogProps) {
  const t = useT();
  const { icon: Icon, className } = look[variant];
  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      role="alertdialog"
      size="sm"
      hideCloseButton
      title={
        <span className="flex items-center gap-3">
          <span className={cx('flex size-9 shrink-0 items-center justify-center rounded-full', className)}>
            <Icon />
          </span>
          {title ?? t(`ui.alert.${variant}`)}
        </span>
      }
      actions={
        <Button autoFocus onPress={onClose}>
          {okLabel ?? t('ui.common.ok')}
        </Button>
      }
    >
      <div data-variant={variant} className="text-base">
        {children}
      </div>
    </Dialog>
  );
}
