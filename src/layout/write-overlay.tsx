import { useEffect, useState } from 'react';
import { useWritesInFlight } from '../api/activity';
import { LoadingOverlay } from '../ui/spinner';

/** Quick writes finish before this; only a slow one (one bar of signal) shows the overlay. */
export const OVERLAY_DELAY_MS = 400;

export function WriteOverlay() {
  const busy = useWritesInFlight() > 0;
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), OVERLAY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);
  return <LoadingOverlay isVisible={visible} />;
}
