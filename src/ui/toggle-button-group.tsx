import { ToggleButton } from 'react-aria-components/ToggleButton';
import { ToggleButtonGroup as AriaToggleButtonGroup, type Key } from 'react-aria-components/ToggleButtonGroup';
import type { ReactNode } from 'react';
import { cx } from './class-names';

export interface ToggleOption {
  id: Key;
  label: string;
  /** With an icon the label becomes the accessible name and can be hidden via `iconOnly`. */
  icon?: ReactNode;
  isDisabled?: boolean;
}

export interface ToggleButtonGroupProps {
  items: readonly ToggleOption[];
  value: Key;
  onChange: (id: Key) => void;
  /** Names the group for screen readers (e.g. 'Diagrammtyp'). */
  'aria-label': string;
  iconOnly?: boolean;
  className?: string;
}

/** Segmented single-choice control for view toggles (chart type, range). One option is always on. */
export function ToggleButtonGroup({ items, value, onChange, iconOnly = false, className, ...aria }: ToggleButtonGroupProps) {
  return (
    <AriaToggleButtonGroup
      {...aria}
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[value]}
      onSelectionChange={(keys) => {
        const [first] = keys;
        if (first !== undefined) onChange(first);
      }}
      className={cx('inline-flex rounded-md border border-border bg-surface p-0.5', className)}
    >
      {items.map((item) => (
        <ToggleButton
          key={item.id}
          id={item.id}
          isDisabled={item.isDisabled}
          aria-label={iconOnly ? item.label : undefined}
          className={cx(
            'inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center gap-2 rounded px-3 text-sm font-medium text-muted outline-none',
            'data-[hovered]:text-fg data-[selected]:bg-primary data-[selected]:text-primary-fg',
            'data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-1 data-[focus-visible]:outline-focus data-[disabled]:opacity-50',
          )}
        >
          {item.icon}
          {!iconOnly && item.label}
        </ToggleButton>
      ))}
    </AriaToggleButtonGroup>
  );
}
