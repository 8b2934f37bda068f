import {
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  type RadioGroupProps as AriaRadioGroupProps,
  type RadioProps as AriaRadioProps,
} from 'react-aria-components/RadioGroup';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel } from './field';

export interface RadioGroupProps extends Omit<AriaRadioGroupProps, 'className' | 'children' | 'validationBehavior'> {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  /** Shorthand for simple option lists; or pass <Radio> children. */
  items?: ReadonlyArray<{ id: string; label: ReactNode; isDisabled?: boolean }>;
  children?: ReactNode;
  className?: string;
}

export function RadioGroup({
  label,
  description,
  errorMessage,
  items,
  children,
  className,
  isInvalid,
  orientation = 'vertical',
  ...rest
}: RadioGroupProps) {
  return (
    <AriaRadioGroup
      {...rest}
      orientation={orientation}
      validationBehavior="aria"
      isInvalid={isInvalid ?? Boolean(errorMessage)}
      className={cx('flex flex-col gap-1', className)}
    >
      <FieldLabel isRequired={rest.isRequired}>{label}</FieldLabel>
      <div className={cx('flex', orientation === 'horizontal' ? 'flex-row flex-wrap gap-x-6' : 'flex-col')}>
        {items?.map((item) => (
          <Radio key={item.id} value={item.id} isDisabled={item.isDisabled}>
            {item.label}
          </Radio>
        ))}
        {children}
      </div>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaRadioGroup>
  );
}

export interface RadioProps extends Omit<AriaRadioProps, 'className' | 'children'> {
  children?: ReactNode;
  className?: string;
}

export function Radio({ children, className, ...rest }: RadioProps) {
  return (
    <AriaRadio
      {...rest}
      className={cx(
        'inline-flex min-h-11 cursor-pointer items-center gap-3 text-base text-fg outline-none',
        'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
        '[&[data-focus-visible]>span:first-child]:outline-2 [&[data-focus-visible]>span:first-child]:outline-offset-2 [&[data-focus-visible]>span:first-child]:outline-focus',
        className,
      )}
    >
      {({ isSelected, isInvalid }) => (
        <>
          <span
            aria-hidden="true"
            className={cx(
              'flex size-5 shrink-0 items-center justify-center rounded-full border-2 bg-surface',
              isSelected ? 'border-primary' : isInvalid ? 'border-danger' : 'border-border',
            )}
          >
            {isSelected && <span className="size-2.5 rounded-full bg-primary" />}
          </span>
          {children}
        </>
      )}
    </AriaRadio>
  );
}
