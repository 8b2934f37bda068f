import {
  Button,
  Disclosure,
  DisclosureGroup,
  DisclosurePanel,
  Heading,
  type DisclosureGroupProps,
  type DisclosureProps,
} from 'react-aria-components/DisclosureGroup';
import type { ReactNode } from 'react';
import { cx } from './class-names';
import { ChevronDownIcon } from './icons';

export interface AccordionProps extends Omit<DisclosureGroupProps, 'className' | 'children'> {
  children: ReactNode;
  className?: string;
}

/** A stack of expandable sections (settings page). `allowsMultipleExpanded` to open several. */
export function Accordion({ children, className, ...rest }: AccordionProps) {
  return (
    <DisclosureGroup {...rest} className={cx('divide-y divide-border rounded-lg border border-border bg-surface', className)}>
      {children}
    </DisclosureGroup>
  );
}

export interface AccordionItemProps extends Omit<DisclosureProps, 'className' | 'children'> {
  title: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3 | 4;
}

export function AccordionItem({ title, children, headingLevel = 3, ...rest }: AccordionItemProps) {
  return (
    <Disclosure {...rest} className="group">
      <Heading level={headingLevel} className="m-0">
        <Button
          slot="trigger"
          className="flex min-h-12 w-full cursor-pointer items-center justify-between gap-3 px-4 text-start text-base font-semibold text-fg outline-none data-[hovered]:bg-surface-2 data-[focus-visible]:outline-2 data-[focus-visible]:-outline-offset-2 data-[focus-visible]:outline-focus"
        >
          {title}
          <ChevronDownIcon className="shrink-0 text-muted transition-transform group-data-[expanded]:rotate-180" />
        </Button>
      </Heading>
      <DisclosurePanel className="px-4 pb-4">{children}</DisclosurePanel>
    </Disclosure>
  );
}
