import { useContext, useEffect, useRef, type AriaAttributes, type MouseEvent, type ReactNode, type Ref } from 'react';
import { I18nContext } from '../i18n/i18n-context';
import { cx } from './class-names';
import { useLinkNavigation } from './navigation';
import { PressResponderContext } from './press-responder';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg';

// States by pseudo-class: they apply to react-aria's buttons that borrow buttonClassName (menus, the
// sidebar) as well; disabled also by data attribute, which both set.
const base =
  'relative inline-flex select-none items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors ' +
  'outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus ' +
  'data-[disabled]:cursor-not-allowed data-[disabled]:opacity-50 cursor-pointer';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-primary-fg hover:brightness-110 active:brightness-95',
  secondary: 'border border-border bg-surface text-fg hover:bg-surface-2 active:bg-surface-2',
  ghost: 'bg-transparent text-fg hover:bg-surface-2 active:bg-surface-2',
  danger: 'bg-danger text-primary-fg hover:brightness-110 active:brightness-95',
};

// Every size keeps a 44 px touch target both ways (tablets in the field), also around a short text
// such as a connector number '1'; sizes differ in padding and type.
const sizes: Record<ButtonSize, string> = {
  sm: 'min-h-11 min-w-11 px-3 text-sm',
  md: 'min-h-11 min-w-11 px-4 text-base',
  lg: 'min-h-12 min-w-12 px-6 text-lg',
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

/** What a press hands to `onPress` (react-aria's PressEvent had more; the app reads none of it). */
export interface PressEvent {
  type: 'press';
  pointerType: 'mouse' | 'pen' | 'touch' | 'keyboard' | 'virtual';
  target: Element;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

const pressEvent = (event: MouseEvent<Element>): PressEvent => {
  const native = event.nativeEvent as PointerEvent;
  // A click without a pointer position comes from the keyboard (Enter/Space) or assistive technology.
  const pointerType = event.detail === 0 ? 'keyboard' : ((native.pointerType || 'mouse') as PressEvent['pointerType']);
  return {
    type: 'press',
    pointerType,
    target: event.currentTarget,
    shiftKey: event.shiftKey,
    ctrlKey: event.ctrlKey,
    metaKey: event.metaKey,
    altKey: event.altKey,
  };
};

type DomProps = AriaAttributes & {
  id?: string;
  title?: string;
  role?: string;
  tabIndex?: number;
  'data-testid'?: string;
  [data: `data-${string}`]: string | number | boolean | undefined;
};

interface NativeButtonProps extends DomProps {
  type?: 'button' | 'submit' | 'reset';
  form?: string;
  name?: string;
  value?: string;
  autoFocus?: boolean;
  isDisabled?: boolean;
  /** Busy: stays focusable and keeps its width, ignores presses, and says so to screen readers. */
  isPending?: boolean;
  onPress?: (event: PressEvent) => void;
  onFocus?: (event: React.FocusEvent<HTMLButtonElement>) => void;
  onBlur?: (event: React.FocusEvent<HTMLButtonElement>) => void;
  onKeyDown?: (event: React.KeyboardEvent<HTMLButtonElement>) => void;
  /** react-aria slots are not read by the native button; kept so older call sites compile. */
  slot?: string | null;
  ref?: Ref<HTMLButtonElement>;
}

/** Icon-only buttons must carry an aria-label (enforced by the type). */
type IconOnly = { iconOnly: true; 'aria-label': string };
type WithText = { iconOnly?: false };

export type ButtonProps = NativeButtonProps & CommonProps & (IconOnly | WithText);

/**
 * A native `<button>` with variants and a pending state: the sign-in page needs nothing more, so the
 * first route carries no react-aria (issue 11). Inside a react-aria trigger (FileTrigger,
 * DialogTrigger) it takes the trigger's press and ARIA attributes, as react-aria's own button would.
 * While pending it keeps focus, its width and its name, ignores presses, does not submit its form,
 * and a status beside it tells screen readers it is busy.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  iconOnly = false,
  className,
  children,
  isPending,
  isDisabled,
  onPress,
  type = 'button',
  slot: _slot,
  ref,
  ...rest
}: ButtonProps) {
  const busy = useContext(I18nContext)?.t('ui.common.loading') ?? '…';
  const responder = useContext(PressResponderContext);
  const own = useRef<HTMLButtonElement | null>(null);
  const { onPress: responderPress, isDisabled: responderDisabled, register, ref: responderRef } = responder ?? {};
  // What the trigger says about its popup (aria-expanded, aria-controls, id …); press handlers aside.
  const responderProps = Object.fromEntries(
    Object.entries(responder ?? {}).filter(([key]) => key === 'id' || key.startsWith('aria-') || key.startsWith('data-')),
  ) as DomProps;
  useEffect(() => {
    register?.();
    if (responderRef) responderRef.current = own.current;
  }, [register, responderRef]);
  const disabled = Boolean(isDisabled || responderDisabled);
  return (
    <>
      <button
        {...responderProps}
        {...rest}
        ref={(node) => {
          own.current = node;
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        }}
        // A pending submit button must not submit again when Enter is pressed in a field.
        type={isPending && type === 'submit' ? 'button' : type}
        disabled={disabled}
        aria-disabled={isPending ? true : undefined}
        data-disabled={disabled || undefined}
        data-pending={isPending || undefined}
        className={buttonClassName(variant, size, iconOnly, cx(isPending && 'cursor-wait', className))}
        onClick={(event) => {
          if (isPending) {
            event.preventDefault();
            return;
          }
          const press = pressEvent(event);
          onPress?.(press);
          responderPress?.(press);
        }}
      >
        {/* Transparent, not hidden, while pending: the button keeps its width and its name. */}
        <span className={cx('inline-flex items-center gap-2', isPending && 'opacity-0')}>{children}</span>
        {isPending && (
          <span aria-hidden="true" className="absolute inset-0 flex items-center justify-center">
            <span className="size-5 animate-spin rounded-full border-2 border-current border-t-transparent" />
          </span>
        )}
      </button>
      {/* Beside the button, not in it (its text would join the button's name), and only on buttons
          that can be pending; always in the DOM then, as a live region announces what appears in
          it: 'Laden…' when the press starts the work. */}
      {isPending !== undefined && (
        <span role="status" className="sr-only">
          {isPending ? busy : ''}
        </span>
      )}
    </>
  );
}

export interface LinkButtonProps extends DomProps, CommonProps {
  href: string;
  target?: string;
  rel?: string;
  download?: boolean | string;
  isDisabled?: boolean;
  onPress?: (event: PressEvent) => void;
  ref?: Ref<HTMLAnchorElement>;
}

/** A link styled as a button (navigation, e.g. 'Details'); navigates through the router (ui/navigation.tsx). */
export function LinkButton({ variant = 'secondary', size = 'md', className, children, ...rest }: LinkButtonProps) {
  return (
    <Link {...rest} className={buttonClassName(variant, size, false, cx('no-underline', className))}>
      {children}
    </Link>
  );
}

export interface LinkProps extends DomProps {
  href: string;
  target?: string;
  rel?: string;
  download?: boolean | string;
  isDisabled?: boolean;
  onPress?: (event: PressEvent) => void;
  className?: string;
  children?: ReactNode;
  ref?: Ref<HTMLAnchorElement>;
}

/**
 * A native link that moves within the app through the router (no reload) and keeps what browsers
 * give a link: open in a new tab with a modifier key or the middle button, copy the address.
 */
export function Link({ href, isDisabled, onPress, className, children, ...rest }: LinkProps) {
  const follow = useLinkNavigation();
  return (
    <a
      {...rest}
      href={isDisabled ? undefined : href}
      role={isDisabled ? 'link' : rest.role}
      aria-disabled={isDisabled || undefined}
      data-disabled={isDisabled || undefined}
      className={cx(
        'outline-none focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
        isDisabled && 'pointer-events-none',
        className,
      )}
      // A press on the link is the link's, as with react-aria's links: a table row around it (the
      // station list's id column) must not take it as a press on the row and toggle its selection.
      onPointerDown={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.stopPropagation();
      }}
      onClick={(event) => {
        event.stopPropagation();
        if (isDisabled) return event.preventDefault();
        onPress?.(pressEvent(event));
        follow(event, href, rest.target);
      }}
    >
      {children}
    </a>
  );
}
