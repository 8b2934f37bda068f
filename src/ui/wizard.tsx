import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { Button } from './button';
import { cx } from './class-names';
import { Dialog, type DialogSize } from './dialog';

export interface WizardStep {
  id?: string;
  title: ReactNode;
  content: ReactNode;
  /** Next (or the final action) is enabled only while this is true. */
  isValid: boolean;
  /**
   * Runs when the user presses Next on this step (e.g. a form's validate/submit). Returning false —
   * or a promise of false — keeps the user on the step.
   */
  onNext?: () => boolean | void | Promise<boolean | void>;
}

export interface WizardProps {
  isOpen: boolean;
  /** Called when the wizard asks to close (Cancel, ×, Escape, backdrop if dismissable). */
  onClose: () => void;
  /**
   * Called every time the wizard closes, however it closed, after returning to step 1; reset your
   * form state here.
   */
  onReset?: () => void;
  title: ReactNode;
  steps: readonly WizardStep[];
  /** Label of the last step's primary button, e.g. t('ui.common.save'). */
  submitLabel: string;
  /** The last step's action. If it returns a promise, the button shows pending until it settles. */
  onSubmit: () => void | Promise<unknown>;
  /** Externally driven pending state of the final action (e.g. a mutation's isPending). */
  isSubmitting?: boolean;
  /** Whether a backdrop click closes the wizard. Default false: typed input must not vanish by accident. */
  isDismissable?: boolean;
  size?: DialogSize;
}

/** Multi-step form in a modal dialog with a step indicator, Back/Next and a final action. */
export function Wizard({
  isOpen,
  onClose,
  onReset,
  title,
  steps,
  submitLabel,
  onSubmit,
  isSubmitting,
  isDismissable = false,
  size = 'xl',
}: WizardProps) {
  const t = useT();
  const [index, setIndex] = useState(0);
  const [busy, setBusy] = useState(false);
  const [wasOpen, setWasOpen] = useState(isOpen);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  // Back to step 1 whenever the dialog closes, whoever closed it (adjusting state during render).
  if (wasOpen !== isOpen) {
    setWasOpen(isOpen);
    if (!isOpen) {
      setIndex(0);
      setBusy(false);
    }
  }

  const onResetRef = useRef(onReset);
  useEffect(() => {
    onResetRef.current = onReset;
  });
  const previouslyOpen = useRef(isOpen);
  useEffect(() => {
    if (previouslyOpen.current && !isOpen) onResetRef.current?.();
    previouslyOpen.current = isOpen;
  }, [isOpen]);

  // After Next/Back, move focus to the new step's heading so screen readers hear where they are.
  useEffect(() => {
    if (moved.current) headingRef.current?.focus();
  }, [index]);

  const last = steps.length - 1;
  const current = Math.min(index, last);
  const step = steps[current];
  const pending = busy || Boolean(isSubmitting);

  const goTo = (next: number) => {
    moved.current = true;
    setIndex(next);
  };

  const next = async () => {
    if (!step.isValid || pending) return;
    if (step.onNext) {
      setBusy(true);
      try {
        if ((await step.onNext()) === false) return;
      } finally {
        setBusy(false);
      }
    }
    goTo(Math.min(current + 1, last));
  };

  const submit = async () => {
    if (!step.isValid || pending) return;
    const result = onSubmit();
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      setBusy(true);
      try {
        await result;
      } catch {
        // The caller shows its own error dialog; the wizard only stops spinning.
      } finally {
        setBusy(false);
      }
    }
  };

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && onClose()}
      title={title}
      isDismissable={isDismissable && !pending}
      isKeyboardDismissDisabled={pending}
      size={size}
      titleAddon={<StepIndicator steps={steps} current={current} />}
      actions={
        <>
          {current === 0 ? (
            <Button variant="secondary" onPress={onClose} isDisabled={pending}>
              {t('ui.common.cancel')}
            </Button>
          ) : (
            <Button variant="secondary" onPress={() => goTo(current - 1)} isDisabled={pending}>
              {t('ui.common.back')}
            </Button>
          )}
          {current < last ? (
            <Button onPress={next} isDisabled={!step.isValid} isPending={pending}>
              {t('ui.common.next')}
            </Button>
          ) : (
            <Button onPress={submit} isDisabled={!step.isValid} isPending={pending}>
              {submitLabel}
            </Button>
          )}
        </>
      }
    >
      <h3 ref={headingRef} tabIndex={-1} className="mb-4 text-base font-semibold outline-none">
        {step.title}
      </h3>
      {step.content}
    </Dialog>
  );
}

function StepIndicator({ steps, current }: { steps: readonly WizardStep[]; current: number }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted" data-testid="wizard-step-indicator">
        {t('ui.wizard.stepOf', { step: current + 1, total: steps.length })}
      </p>
      <ol aria-hidden="true" className="flex gap-1.5">
        {steps.map((s, i) => (
          <li key={s.id ?? i} className={cx('h-1.5 flex-1 rounded-full', i <= current ? 'bg-primary' : 'bg-surface-2')} />
        ))}
      </ol>
    </div>
  );
}
