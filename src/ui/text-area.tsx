import {
  TextArea as AriaTextArea,
  TextField as AriaTextField,
  type TextFieldProps as AriaTextFieldProps,
} from 'react-aria-components/TextField';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel, inputClassName } from './field';

export interface TextAreaProps extends Omit<AriaTextFieldProps, 'className' | 'children' | 'validationBehavior'> {
  label: ReactNode;
  description?: ReactNode;
  errorMessage?: string;
  placeholder?: string;
  /** Visible rows, clamped to 12–20 (spec 1 §9). Default 12. */
  rows?: number;
  className?: string;
}

export const TEXT_AREA_MIN_ROWS = 12;
export const TEXT_AREA_MAX_ROWS = 20;

export function TextArea({
  label,
  description,
  errorMessage,
  placeholder,
  rows = TEXT_AREA_MIN_ROWS,
  className,
  isInvalid,
  ...rest
}: TextAreaProps) {
  const clamped = Math.min(TEXT_AREA_MAX_ROWS, Math.max(TEXT_AREA_MIN_ROWS, Math.round(rows)));
  return (
    <AriaTextField
      {...rest}
      validationBehavior="aria"
      isInvalid={isInvalid ?? Boolean(errorMessage)}
      className={cx('flex w-full flex-col gap-1', className)}
    >
      <FieldLabel isRequired={rest.isRequired}>{label}</FieldLabel>
      <AriaTextArea rows={clamped} placeholder={placeholder} className={cx(inputClassName, 'resize-y py-2 leading-normal')} />
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaTextField>
  );
}
