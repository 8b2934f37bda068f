import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components/Switch';
import type { ReactNode } from 'react';
import { cx } from './class-names';

export interface SwitchProps extends Omit<AriaSwitchProps, 'className' | 'children'> {
  children?: ReactNode;
  className?: string;
}

/** On/off toggle (role=switch) with the label as part of the 44 px hit area. */
export function Switch({ children, className, ...rest }: SwitchProps) {
  return (
    <AriaSwitch
      {...rest}
      className={cx(
        'inline-flex min-h-11 cursor-pointer items-center gap-3 text-base text-fg outline-none',
        'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
        '[&[data-focus-visible]>span:first-child]:outline-2 [&[data-focus-visible]>span:first-child]:outline-offset-2 [&[data-focus-visible]>span:first-child]:outline-focus',
        className,
      )}
    >
      {({ isSelected }) => (
        <>
          <span
            aria-hidden="true"
            className={cx('flex h-6 w-11 shrink-0 items-center rounded-full p-0.5 transition-colors', isSelected ? 'bg-primary' : 'bg-border')}
          >
            <span className={cx('size-5 rounded-full bg-surface shadow transition-transform', isSelected && 'translate-x-5')} />
          </span>
          {children}
        </>
      )}
    </AriaSwitch>
  );
}
