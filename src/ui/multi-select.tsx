import { Button, ListBox, ListBoxItem, Popover, Select as AriaSelect, type Key } from 'react-aria-components/Select';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { cx } from './class-names';
import { FieldDescription, FieldErrorText, FieldLabel, fieldWidthClassName, inputClassName } from './field';
import { CheckIcon, ChevronDownIcon, MinusIcon } from './icons';
import { listItemClassName, popoverClassName, type SelectItem } from './select';
import { SelectTwin, useAfterFirstPaint } from './deferred-mount';

/** Id of the synthetic 'all' entry; never appears in `value`. */
export const ALL_KEY = '__all__';

export interface MultiSelectProps<T extends SelectItem> {
  label: ReactNode;
  items: readonly T[];
  value: readonly Key[];
  onChange: (value: Key[]) => void;
  /** Adds an 'Alle' entry on top that selects or clears every item. */
  showAll?: boolean;
  placeholder?: string;
  description?: ReactNode;
  errorMessage?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
  name?: string;
  className?: string;
  fullWidth?: boolean;
}

/**
 * Several choices (e.g. locations for the cockpit chart): a checkbox list in a popover, with the
 * selection summarised as a count chip on the trigger. The popover stays open while ticking.
 */
export function MultiSelect<T extends SelectItem>({
  label,
  items,
  value,
  onChange,
  showAll = false,
  placeholder,
  description,
  errorMessage,
  isRequired,
  isDisabled,
  name,
  className,
  fullWidth,
}: MultiSelectProps<T>) {
  const t = useT();
  const selectable = items.filter((i) => !i.isDisabled);
  const allSelected = selectable.length > 0 && selectable.every((i) => value.includes(i.id));
  const someSelected = value.length > 0 && !allSelected;
  const entries: Array<SelectItem> = showAll ? [{ id: ALL_KEY, label: t('ui.multiSelect.all') }, ...items] : [...items];
  const selectedValue = showAll && allSelected ? [ALL_KEY, ...value] : [...value];

  const handleChange = (next: Key[]) => {
    const hadAll = selectedValue.includes(ALL_KEY);
    const hasAll = next.includes(ALL_KEY);
    if (showAll && hasAll !== hadAll) {
      onChange(hasAll ? selectable.map((i) => i.id) : []);
      return;
    }
    onChange(next.filter((k) => k !== ALL_KEY));
  };

  const mounted = useAfterFirstPaint();
  const selectedLabels = items.filter((i) => value.includes(i.id)).map((i) => i.label);
  const summary =
    value.length === 0
      ? (placeholder ?? t('ui.select.placeholder'))
      : allSelected && showAll
        ? t('ui.multiSelect.allSelected')
        : selectedLabels.join(', ');

  const count = value.length > 0 && (
    <span data-testid="multi-select-count" className="rounded-full bg-primary-soft px-2 py-0.5 text-xs font-semibold text-fg">
      <span aria-hidden="true">{value.length}</span>
      <span className="sr-only">{t('ui.multiSelect.selectedCount', { count: value.length })}</span>
    </span>
  );
  if (!mounted) {
    return (
      <SelectTwin
        label={label}
        text={summary}
        isPlaceholder={value.length === 0}
        addon={count}
        description={description}
        isRequired={isRequired}
        className={className}
        width={fullWidth ? 'full' : 'field'}
      />
    );
  }
  return (
    <AriaSelect
      selectionMode="multiple"
      value={selectedValue}
      onChange={handleChange}
      isRequired={isRequired}
      isDisabled={isDisabled}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      name={name}
      disabledKeys={items.filter((i) => i.isDisabled).map((i) => i.id)}
      className={cx('flex flex-col gap-1', fullWidth ? 'w-full' : fieldWidthClassName, className)}
    >
      <FieldLabel isRequired={isRequired}>{label}</FieldLabel>
      <Button className={cx(inputClassName, 'flex items-center justify-between gap-2 text-start')}>
        <span className={cx('truncate', value.length === 0 && 'text-muted')}>{summary}</span>
        <span className="flex shrink-0 items-center gap-1">
          {count}
          <ChevronDownIcon className="text-muted" />
        </span>
      </Button>
      <FieldDescription>{description}</FieldDescription>
      <FieldErrorText>{errorMessage}</FieldErrorText>
      <Popover className={cx(popoverClassName, 'max-h-[300px]')}>
        <ListBox items={entries} className="py-1 outline-none">
          {(item) => (
            <ListBoxItem
              id={item.id}
              textValue={item.label}
              className={cx(listItemClassName, item.id === ALL_KEY && 'border-b border-border font-medium')}
            >
              {({ isSelected }) => {
                const mixed = item.id === ALL_KEY && someSelected;
                return (
                  <>
                    <span
                      aria-hidden="true"
                      className={cx(
                        'flex size-5 shrink-0 items-center justify-center rounded border-2',
                        isSelected || mixed ? 'border-primary bg-primary text-primary-fg' : 'border-border bg-surface',
                      )}
                    >
                      {isSelected ? <CheckIcon size={14} strokeWidth={3} /> : mixed ? <MinusIcon size={14} strokeWidth={3} /> : null}
                    </span>
                    <span className="flex-1">{item.label}</span>
                  </>
                );
              }}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
