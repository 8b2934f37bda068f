import { Menu, MenuItem, MenuTrigger, Popover, Text, type Key } from 'react-aria-components/Menu';
import { Button as AriaButton } from 'react-aria-components/Button';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { buttonClassName, type ButtonVariant } from './button';
import { cx } from './class-names';
import { ChevronDownIcon, MoreIcon } from './icons';

export interface ActionMenuItem {
  id: Key;
  label: string;
  isDisabled?: boolean;
  /** A second line under the label, the item's accessible description (e.g. why it is disabled). */
  description?: string;
  /** Destructive actions are shown in the danger colour. */
  tone?: 'default' | 'danger';
  /** A link item instead of an action (navigates via react-aria's RouterProvider). */
  href?: string;
}

export interface ActionMenuProps {
  items: readonly ActionMenuItem[];
  onAction?: (id: Key) => void;
  /** Trigger text; defaults to 'Aktionen'. With `iconOnly` it becomes the aria-label. */
  label?: string;
  iconOnly?: boolean;
  variant?: ButtonVariant;
  isDisabled?: boolean;
  icon?: ReactNode;
}

/** "Actions" menu button (spec 1 §9: the menu is at most 300 px tall, then scrolls). */
export function ActionMenu({ items, onAction, label, iconOnly = false, variant = 'secondary', isDisabled, icon }: ActionMenuProps) {
  const t = useT();
  const text = label ?? t('ui.common.actions');
  return (
    <MenuTrigger>
      <AriaButton aria-label={iconOnly ? text : undefined} isDisabled={isDisabled} className={buttonClassName(variant, 'md', iconOnly)}>
        {iconOnly ? (
          (icon ?? <MoreIcon />)
        ) : (
          <>
            {icon}
            {text}
            <ChevronDownIcon size={18} />
          </>
        )}
      </AriaButton>
      <Popover
        placement="bottom end"
        className="max-h-[300px] min-w-48 overflow-auto rounded-md border border-border bg-surface shadow-lg outline-none"
      >
        <Menu
          items={items}
          onAction={onAction}
          disabledKeys={items.filter((i) => i.isDisabled).map((i) => i.id)}
          className="py-1 outline-none"
        >
          {(item) => (
            <MenuItem
              id={item.id}
              href={item.href}
              textValue={item.label}
              className={cx(
                'flex min-h-11 cursor-pointer flex-col justify-center px-4 text-base outline-none data-[focused]:bg-surface-2 data-[disabled]:cursor-not-allowed',
                item.tone === 'danger' ? 'text-danger' : 'text-fg',
              )}
            >
              <Text slot="label" className={item.isDisabled ? 'opacity-50' : undefined}>
                {item.label}
              </Text>
              {item.description ? (
                <Text slot="description" className="max-w-72 pb-1 text-sm text-muted">
                  {item.description}
                </Text>
              ) : null}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
