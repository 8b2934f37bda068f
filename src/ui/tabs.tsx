import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  type TabListProps as AriaTabListProps,
  type TabPanelProps as AriaTabPanelProps,
  type TabProps as AriaTabProps,
  type TabsProps as AriaTabsProps,
} from 'react-aria-components/Tabs';
import { cx } from './class-names';

/** Tabs family: <Tabs><TabList aria-label><Tab id/></TabList><TabPanel id/></Tabs>. Arrow keys move between tabs. */
export function Tabs({ className, ...rest }: Omit<AriaTabsProps, 'className'> & { className?: string }) {
  return <AriaTabs {...rest} className={cx('flex flex-col gap-3', className)} />;
}

export function TabList<T extends object>({ className, ...rest }: Omit<AriaTabListProps<T>, 'className'> & { className?: string }) {
  return <AriaTabList {...rest} className={cx('flex gap-1 overflow-x-auto border-b border-border', className)} />;
}

export function Tab({ className, ...rest }: Omit<AriaTabProps, 'className'> & { className?: string }) {
  return (
    <AriaTab
      {...rest}
      className={cx(
        '-mb-px flex min-h-11 cursor-pointer items-center whitespace-nowrap border-b-2 border-transparent px-4 text-base text-muted outline-none',
        'data-[hovered]:text-fg data-[selected]:border-primary data-[selected]:font-semibold data-[selected]:text-fg',
        'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50',
        'data-[focus-visible]:outline-2 data-[focus-visible]:-outline-offset-2 data-[focus-visible]:outline-focus',
        className,
      )}
    />
  );
}

export function TabPanel({ className, ...rest }: Omit<AriaTabPanelProps, 'className'> & { className?: string }) {
  return (
    <AriaTabPanel {...rest} className={cx('outline-none data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus', className)} />
  );
}
