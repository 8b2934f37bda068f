import { Input, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components/TextField';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel, fieldWidthClassName, inputClassName } from './field';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'className' | 'children' | 'type' | 'validationBehavior'> {
  label: ReactNode;
  description?: ReactNode;
  /** Shown (and announced) when set; also marks the field invalid. */
  errorMessage?: string;
  /** 'number' gives a numeric keyboard on tablets but keeps a text input (ids, zip codes keep leading zeros). */
  type?: 'text' | 'email' | 'password' | 'number' | 'tel' | 'search' | 'url';
  placeholder?: string;
  className?: string;
  /** Stretch to the container instead of the standard 400 px. */
  fullWidth?: boolean;
}

/**
 * Labelled text input. Validation is 'aria' style: the caller's rules (src/ui/validation.ts) decide,
 * so messages are ours and localised rather than the browser's.
 */
export function TextField({
  label,
  description,
  errorMessage,
  type = 'text',
  placeholder,
  className,
  fullWidth,
  isInvalid,
  ...rest
}: TextFieldProps) {
  const numeric = type === 'number';
  return (
    <AriaTextField
      {...rest}
      type={numeric ? 'text' : type}
      inputMode={numeric ? 'numeric' : rest.inputMode}
      validationBehavior="aria"
      isInvalid={isInvalid ?? Boolean(errorMessage)}
      className={cx('flex flex-col gap-1', fullWidth ? 'w-full' : fieldWidthClassName, className)}
    >
      <FieldLabel isRequired={rest.isRequired}>{label}</FieldLabel>
      <Input placeholder={placeholder} className={inputClassName} />
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
    </AriaTextField>
  );
}
