import { Suspense, lazy, useCallback, useMemo, useState, type ComponentType, type ReactNode } from 'react';

/** Whether a lazily loaded dialog is open, and whether it ever was (from then on it stays mounted). */
export interface DialogOpener {
  isOpen: boolean;
  wasOpened: boolean;
  /** How often it was opened: as the dialog's `key`, each opening starts from a fresh form. */
  opening: number;
  open: () => void;
  close: () => void;
}

export function useDialogOpener(): DialogOpener {
  const [isOpen, setOpen] = useState(false);
  const [opening, setOpening] = useState(0);
  const open = useCallback(() => {
    setOpening((n) => n + 1);
    setOpen(true);
  }, []);
  const close = useCallback(() => setOpen(false), []);
  return useMemo(() => ({ isOpen, wasOpened: opening > 0, opening, open, close }), [isOpen, opening, open, close]);
}

interface OpenProps {
  isOpen: boolean;
  onClose: () => void;
}

export type LazyDialogProps<P extends OpenProps> = Omit<P, keyof OpenProps> & {
  opener: DialogOpener;
  /** What shows while the chunk loads the first time (default: nothing; the page stays as it is). */
  fallback?: ReactNode;
};

/**
 * A dialog whose chunk loads when it is first opened, not with its screen: `load` resolves to the
 * dialog component (`() => import('./x').then((m) => m.X)`). Once opened it stays mounted, so the
 * success or error dialog it shows after closing outlives it; give it a `key` to start afresh per
 * opening. `preload()` fetches the chunk ahead, for dialogs that must work offline right after the
 * screen showed (before the service worker has cached the app).
 */
export function lazyDialog<P extends OpenProps>(load: () => Promise<ComponentType<P>>) {
  const Loaded = lazy(() => load().then((component) => ({ default: component })));
  function LazyDialog({ opener, fallback = null, ...props }: LazyDialogProps<P>) {
    if (!opener.wasOpened) return null;
    const own = { ...props, isOpen: opener.isOpen, onClose: opener.close } as unknown as P;
    return (
      <Suspense fallback={fallback}>
        <Loaded {...own} />
      </Suspense>
    );
  }
  LazyDialog.preload = () => void load().catch(() => undefined);
  return LazyDialog;
}
