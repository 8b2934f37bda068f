import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components/Button';
import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components/Link';
import { useEffect, useRef, type ReactNode } from 'react';
// The announcer react-aria's pending button speaks through (same module instance as the button's).
import { clearAnnouncer } from 'react-aria/private/live-announcer/LiveAnnouncer';
import { cx } from './class-names';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

const base =
  'relative inline-flex select-none items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors ' +
  'outline-none data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus ' +
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 cursor-pointer';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-primary-fg data-[hovered]:brightness-110 data-[pressed]:brightness-95',
  secondary: 'border border-border bg-surface text-fg data-[hovered]:bg-surface-2 data-[pressed]:bg-surface-2',
  ghost: 'bg-transparent text-fg data-[hovered]:bg-surface-2 data-[pressed]:bg-surface-2',
  danger: 'bg-danger text-primary-fg data-[hovered]:brightness-110 data-[pressed]:brightness-95',
};

// Every size keeps a 44 px touch target (tablets in the field); sizes differ in padding and type.
const sizes: Record<ButtonSize, string> = {
  sm: 'min-h-11 px-3 text-sm',
  md: 'min-h-11 px-4 text-base',
  lg: 'min-h-12 px-6 text-lg',
};
const iconSizes: Record<ButtonSize, string> = { sm: 'size-11', md: 'size-11', lg: 'size-12' };

export function buttonClassName(variant: ButtonVariant = 'primary', size: ButtonSize = 'md', iconOnly = false, extra?: string) {
  return cx(base, variants[variant], iconOnly ? iconSizes[size] : sizes[size], extra);
}

interface CommonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  children?: ReactNode;
}

/** How long react-aria's announcer waits before the first announcement of a page (LiveAnnouncer.announce). */
const FIRST_ANNOUNCEMENT_DELAY_MS = 100;

/** Icon-only buttons must carry an aria-label (enforced by the type). */
type IconOnly = { iconOnly: true; 'aria-label': string };
type WithText = { iconOnly?: false };

export type ButtonProps = Omit<AriaButtonProps, 'className' | 'children'> & CommonProps & (IconOnly | WithText);

/**
 * Button with variants and a pending state. While pending, react-aria keeps focus on the button,
 * ignores presses and announces the progress; the label stays in place (invisible) to keep the width.
 */
export function Button({ variant = 'primary', size = 'md', iconOnly = false, className, children, isPending, ...rest }: ButtonProps) {
  // react-aria announces the pending state with a live node that points at this button by id. A
  // button that goes away while pending (sign-in navigates on) would leave that node pointing at
  // nothing: an unnamed image for screen readers. Gone while pending, it takes its announcement along.
  const pending = useRef(isPending);
  pending.current = isPending;
  useEffect(
    () => () => {
      if (!pending.current) return;
      clearAnnouncer('assertive');
      // A page's first announcement waits ~100 ms for the announcer to attach (react-aria's
      // LiveAnnouncer), so a fast sign-in can leave before it lands: clear once more after that.
      setTimeout(() => clearAnnouncer('assertive'), FIRST_ANNOUNCEMENT_DELAY_MS + 50);
    },
    [],
  );
  return (
    <AriaButton {...rest} isPending={isPending} className={buttonClassName(variant, size, iconOnly, className)}>
      <span className={cx('inline-flex items-center gap-2', isPending && 'invisible')}>{children}</span>
      {isPending && (
        <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center">
          <span className="size-5 animate-spin rounded-full border-2 border-current border-t-transparent" />
        </span>
      )}
    </AriaButton>
  );
}

export type LinkButtonProps = Omit<AriaLinkProps, 'className' | 'children'> & CommonProps;

/** A link styled as a button (navigation, e.g. 'Details'); uses react-aria's RouterProvider when set. */
export function LinkButton({ variant = 'secondary', size = 'md', className, children, ...rest }: LinkButtonProps) {
  return (
    <AriaLink {...rest} className={buttonClassName(variant, size, false, cx('no-underline', className))}>
      {children}
    </AriaLink>
  );
}
