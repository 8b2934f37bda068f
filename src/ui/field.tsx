import { FieldError, Label, Text } from 'react-aria-components/TextField';
import type { ReactNode } from 'react';
import { cx } from './class-names';

/** Shared pieces of every form field: label, help text, error text, input styling. */

export const inputClassName =
  'min-h-11 w-full rounded-md border border-border bg-surface px-3 text-base text-fg placeholder:text-muted ' +
  'outline-none data-[focused]:border-focus data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus ' +
  'data-[invalid]:border-danger data-[disabled]:opacity-50 data-[disabled]:cursor-not-allowed';

/** Spec 1 §9: text fields are 400 px wide; they shrink on narrow screens. */
export const fieldWidthClassName = 'w-full max-w-[400px]';

export function FieldLabel({ children, isRequired }: { children: ReactNode; isRequired?: boolean }) {
  return (
    <Label className="text-sm font-medium text-fg">
      {children}
      {/* The input itself carries aria-required; the star is for sighted users only. */}
      {isRequired && (
        <span aria-hidden="true" className="ms-0.5 text-danger">
          *
        </span>
      )}
    </Label>
  );
}

export function FieldDescription({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <Text slot="description" className="text-sm text-muted">
      {children}
    </Text>
  );
}

/**
 * Error text. react-aria links it to the input (aria-describedby); the polite live region around it
 * makes screen readers also announce it the moment it appears while the user is typing. Only our
 * message is shown: without one, react-aria's FieldError would show its own built-in wording (a
 * date past its maximum, a constraint of the browser), a second message set beside validation.*.
 */
export function FieldErrorText({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <div aria-live="polite" className={cx('empty:hidden', className)}>
      {children ? <FieldError className="text-sm text-danger">{children}</FieldError> : null}
    </div>
  );
}
