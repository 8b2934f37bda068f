import type { Context } from 'react';
// react-aria's triggers (FileTrigger, DialogTrigger) hand their press handler and ARIA attributes to
// their child through this context. react-aria does not export it, so it is read from its own module
// file: the same instance the triggers provide (react-aria/private/interactions/PressResponder
// imports it from there). The module holds nothing but the context, so the first route stays small.
// @ts-expect-error -- the file has no type declarations of its own; its type is declared below.
import { PressResponderContext as context } from '../../node_modules/react-aria/dist/private/interactions/context.mjs';

/** What a trigger hands its pressable child (react-aria's IPressResponderContext, the parts the kit reads). */
export interface PressResponderValue {
  onPress?: (event: unknown) => void;
  isDisabled?: boolean;
  register?: () => void;
  ref?: { current: Element | null };
  [prop: string]: unknown;
}

export const PressResponderContext = context as Context<PressResponderValue | null>;
