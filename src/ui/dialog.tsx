import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components/Modal';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { AriaProviders } from './aria-providers';
import { Button } from './button';
import { cx } from './class-names';
import { CloseIcon } from './icons';

export type DialogSize = 'sm' | 'md' | 'lg' | 'xl';
// Spec 1 §9: dialogs are up to 1000 px wide.
const widths: Record<DialogSize, string> = { sm: 'max-w-[420px]', md: 'max-w-[600px]', lg: 'max-w-[800px]', xl: 'max-w-[1000px]' };

export interface DialogProps {
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
  title: ReactNode;
  children?: ReactNode;
  /** Buttons at the bottom, right-aligned (stacked on narrow screens). */
  actions?: ReactNode;
  /**
   * Whether a click on the backdrop closes the dialog (default true). Wizards that would lose typed
   * input pass false; Escape and the close button still work unless `isKeyboardDismissDisabled`.
   */
  isDismissable?: boolean;
  isKeyboardDismissDisabled?: boolean;
  /** Hide the × button in the corner (e.g. when the actions include Cancel). Default shown. */
  hideCloseButton?: boolean;
  size?: DialogSize;
  role?: 'dialog' | 'alertdialog';
  /** Extra content beside the title (e.g. a step indicator). */
  titleAddon?: ReactNode;
  className?: string;
}

/** Controlled modal dialog: focus trapped and restored, scroll locked, title announced as its name. */
export function Dialog({
  isOpen,
  onOpenChange,
  title,
  children,
  actions,
  isDismissable = true,
  isKeyboardDismissDisabled = false,
  hideCloseButton = false,
  size = 'xl',
  role = 'dialog',
  titleAddon,
  className,
}: DialogProps) {
  const t = useT();
  return (
    <AriaProviders>
      <ModalOverlay
        isOpen={isOpen}
        onOpenChange={onOpenChange}
        isDismissable={isDismissable}
        isKeyboardDismissDisabled={isKeyboardDismissDisabled}
        className="fixed inset-0 z-50 flex items-center justify-center overflow-y-auto bg-fg/40 p-2 sm:p-4"
      >
        <Modal className={cx('w-full', widths[size])}>
          <AriaDialog
            role={role}
            className={cx('flex max-h-[calc(100dvh-1rem)] flex-col rounded-lg bg-surface text-fg shadow-xl outline-none', className)}
          >
            {({ close }) => (
              <>
                {/* The addon (a wizard's step bar) runs the full width, under the title and the close button. */}
                <header className="flex flex-col gap-0.5 border-b border-border px-5 py-3">
                  <div className="flex items-start gap-3">
                    <Heading slot="title" className="min-w-0 flex-1 pt-2 text-lg font-semibold">
                      {title}
                    </Heading>
                    {!hideCloseButton && (
                      <Button variant="ghost" iconOnly aria-label={t('ui.common.close')} onPress={close}>
                        <CloseIcon />
                      </Button>
                    )}
                  </div>
                  {titleAddon}
                </header>
                <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
                {actions && (
                  <footer className="flex flex-col-reverse gap-2 border-t border-border px-5 py-3 sm:flex-row sm:justify-end">
                    {actions}
                  </footer>
                )}
              </>
            )}
          </AriaDialog>
        </Modal>
      </ModalOverlay>
    </AriaProviders>
  );
}
