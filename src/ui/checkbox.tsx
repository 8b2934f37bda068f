import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components/Checkbox';
import { CheckboxGroup as AriaCheckboxGroup, type CheckboxGroupProps as AriaCheckboxGroupProps } from 'react-aria-components/CheckboxGroup';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel } from './field';
import { CheckIcon, MinusIcon } from './icons';

/** The visual box, shared with table row selection. */
export function CheckboxBox({
  isSelected,
  isIndeterminate,
  isInvalid,
}: {
  isSelected: boolean;
  isIndeterminate?: boolean;
  isInvalid?: boolean;
}) {
  const on = isSelected || isIndeterminate;
  return (
    <span
      aria-hidden="true"
      className={cx(
        'flex size-5 shrink-0 items-center justify-center rounded border-2 transition-colors',
        on ? 'border-primary bg-primary text-primary-fg' : 'border-border bg-surface',
        isInvalid && !on && 'border-danger',
      )}
    >
      {isIndeterminate ? <MinusIcon size={14} strokeWidth={3} /> : isSelected ? <CheckIcon size={14} strokeWidth={3} /> : null}
    </span>
  );
}

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'className' | 'children'> {
  children?: ReactNode;
  className?: string;
}

/** Checkbox with a 44 px tall hit area (label included). */
export function Checkbox({ children, className, ...rest }: CheckboxProps) {
  return (
    <AriaCheckbox
      {...rest}
      className={cx(
        'group inline-flex min-h-11 cursor-pointer items-center gap-3 text-base text-fg outline-none',
        'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
        '[&[data-focus-visible]>span:first-child]:outline-2 [&[data-focus-visible]>span:first-child]:outline-offset-2 [&[data-focus-visible]>span:first-child]:outline-focus',
        className,
      )}
    >
      {({ isSelected, isIndeterminate, isInvalid }) => (
        <>
          <CheckboxBox isSelected={isSelected} isIndeterminate={isIndeterminate} isInvalid={isInvalid} />
          {children}
        </>
      )}
    </AriaCheckbox>
  );
}

export interface CheckboxGroupProps extends Omit<AriaCheckboxGroupProps, 'className' | 'children' | 'validationBehavior'> {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  children: ReactNode;
  className?: string;
}

export function CheckboxGroup({ label, description, errorMessage, children, className, isInvalid, ...rest }: CheckboxGroupProps) {
  return (
    <AriaCheckboxGroup
      {...rest}
      validationBehavior="aria"
      isInvalid={isInvalid ?? Boolean(errorMessage)}
      className={cx('flex flex-col gap-1', className)}
    >
      <FieldLabel isRequired={rest.isRequired}>{label}</FieldLabel>
      <div className="flex flex-col">{children}</div>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaCheckboxGroup>
  );
}
