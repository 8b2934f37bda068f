import { useId, type FocusEvent, type HTMLAttributes, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { cx } from './class-names';

/** The input's look; states by pseudo-class and ARIA (a native input, no react-aria data attributes). */
export const nativeInputClassName =
  'min-h-11 w-full rounded-md border border-border bg-surface px-3 text-base text-fg placeholder:text-muted ' +
  'outline-none focus:border-focus focus-visible:outline-2 focus-visible:outline-focus ' +
  'aria-[invalid=true]:border-danger disabled:cursor-not-allowed disabled:opacity-50';

/** Spec 1 §9: text fields are 400 px wide; they shrink on narrow screens. */
const fieldWidthClassName = 'w-full max-w-[400px]';

export interface TextFieldProps {
  label: ReactNode;
  description?: ReactNode;
  /** Shown (and announced) when set; also marks the field invalid. */
  errorMessage?: string;
  /**
   * 'number' gives a numeric keyboard on tablets but keeps a text input (ids, zip codes keep leading
   * zeros); an `inputMode` of its own (e.g. 'decimal' for amounts with a comma) wins.
   */
  type?: 'text' | 'email' | 'password' | 'number' | 'tel' | 'search' | 'url';
  placeholder?: string;
  className?: string;
  /** Stretch to the container instead of the standard 400 px. */
  fullWidth?: boolean;
  value?: string;
  defaultValue?: string;
  onChange?: (value: string) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
  onFocus?: (event: FocusEvent<HTMLInputElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLInputElement>) => void;
  isRequired?: boolean;
  isDisabled?: boolean;
  isReadOnly?: boolean;
  /** Marks the field invalid without a message of its own (defaults to: an error message is set). */
  isInvalid?: boolean;
  autoFocus?: boolean;
  autoComplete?: string;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  name?: string;
  id?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  enterKeyHint?: HTMLAttributes<HTMLInputElement>['enterKeyHint'];
  spellCheck?: boolean;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'data-testid'?: string;
  ref?: Ref<HTMLInputElement>;
}

/**
 * Labelled text input on native elements (the first route carries no react-aria, issue 11): the
 * label names the input, the description and the error are linked by aria-describedby, the error
 * sets aria-invalid and sits in a polite live region, so it is announced the moment it appears.
 * Validation is the caller's (src/ui/validation.ts), so messages are ours and localised rather than
 * the browser's: the input is never `required` for the browser, only aria-required.
 */
export function TextField({
  label,
  description,
  errorMessage,
  type = 'text',
  placeholder,
  className,
  fullWidth,
  onChange,
  isRequired,
  isDisabled,
  isReadOnly,
  isInvalid,
  id,
  ...rest
}: TextFieldProps) {
  const numeric = type === 'number';
  const own = useId();
  const inputId = id ?? `${own}-input`;
  const descriptionId = description ? `${own}-description` : undefined;
  const invalid = isInvalid ?? Boolean(errorMessage);
  const errorId = invalid && errorMessage ? `${own}-error` : undefined;
  return (
    <div className={cx('flex flex-col gap-1', fullWidth ? 'w-full' : fieldWidthClassName, className)}>
      <label htmlFor={inputId} className="text-sm font-medium text-fg">
        {label}
        {/* The input itself carries aria-required; the star is for sighted users only. */}
        {isRequired && (
          <span aria-hidden="true" className="ms-0.5 text-danger">
            *
          </span>
        )}
      </label>
      <input
        {...rest}
        id={inputId}
        type={numeric ? 'text' : type}
        inputMode={rest.inputMode ?? (numeric ? 'numeric' : undefined)}
        placeholder={placeholder}
        disabled={isDisabled}
        readOnly={isReadOnly}
        aria-required={isRequired || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={cx(rest['aria-describedby'], descriptionId, errorId) || undefined}
        onChange={(event) => onChange?.(event.target.value)}
        className={nativeInputClassName}
      />
      {description && (
        <span id={descriptionId} className="text-sm text-muted">
          {description}
        </span>
      )}
      <div aria-live="polite" className="empty:hidden">
        {errorId && (
          <span id={errorId} className="text-sm text-danger">
            {errorMessage}
          </span>
        )}
      </div>
    </div>
  );
}
