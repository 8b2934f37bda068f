import { Button, ListBox, ListBoxItem, Popover, Select as AriaSelect, SelectValue, type Key } from 'react-aria-components/Select';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel, fieldWidthClassName, inputClassName } from './field';
import { CheckIcon, ChevronDownIcon } from './icons';
import { SelectTwin, useAfterFirstPaint } from './deferred-mount';

export interface SelectItem {
  id: Key;
  label: string;
  isDisabled?: boolean;
}

export interface SelectProps<T extends SelectItem> {
  label: ReactNode;
  items: readonly T[];
  value: Key | null;
  onChange: (value: Key | null) => void;
  placeholder?: string;
  description?: ReactNode;
  errorMessage?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  name?: string;
  className?: string;
  fullWidth?: boolean;
  /** Only as wide as its content (e.g. the rows-per-page choice). */
  compact?: boolean;
  'aria-label'?: string;
}

export const popoverClassName =
  'min-w-[var(--trigger-width)] overflow-auto rounded-md border border-border bg-surface text-fg shadow-lg outline-none';

export const listItemClassName =
  'flex min-h-11 cursor-pointer items-center gap-2 px-3 text-base outline-none ' +
  'data-[focused]:bg-surface-2 data-[hovered]:bg-surface-2 data-[selected]:font-medium data-[disabled]:opacity-50';

/** Single choice from `{ id, label }` items (listbox in a popover, typeahead, full keyboard support). */
export function Select<T extends SelectItem>({
  label,
  items,
  value,
  onChange,
  placeholder,
  description,
  errorMessage,
  isRequired,
  isDisabled,
  name,
  className,
  fullWidth,
  compact,
  ...aria
}: SelectProps<T>) {
  const t = useT();
  const mounted = useAfterFirstPaint();
  if (!mounted) {
    const chosen = items.find((i) => i.id === value);
    return (
      <SelectTwin
        label={label}
        text={chosen?.label ?? placeholder ?? t('ui.select.placeholder')}
        isPlaceholder={!chosen}
        description={description}
        isRequired={isRequired}
        className={className}
        width={fullWidth ? 'full' : compact ? 'fit' : 'field'}
      />
    );
  }
  return (
    <AriaSelect
      {...aria}
      value={value}
      onChange={(key) => onChange(key)}
      placeholder={placeholder ?? t('ui.select.placeholder')}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      name={name}
      disabledKeys={items.filter((i) => i.isDisabled).map((i) => i.id)}
      className={cx('flex flex-col gap-1', fullWidth ? 'w-full' : compact ? 'w-fit' : fieldWidthClassName, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <Button className={cx(inputClassName, 'flex items-center justify-between gap-2 text-start')}>
        <SelectValue className="truncate data-[placeholder]:text-muted" />
        <ChevronDownIcon className="shrink-0 text-muted" />
      </Button>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
      <Popover className={cx(popoverClassName, 'max-h-[300px]')}>
        <ListBox items={items} className="py-1 outline-none">
          {(item) => (
            <ListBoxItem id={item.id} textValue={item.label} className={listItemClassName}>
              {({ isSelected }) => (
                <>
                  <span className="flex-1">{item.label}</span>
                  {isSelected && <CheckIcon className="text-primary" />}
                </>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
