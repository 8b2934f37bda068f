import { createContext, useContext, type MouseEvent, type ReactNode } from 'react';

/** Moves the app to a path of its own without a reload (the router's navigate). */
export type Navigate = (href: string) => void;

const NavigationContext = createContext<Navigate | null>(null);

/** Lets the kit's native links (ui/button.tsx `Link`, `LinkButton`) navigate through the router. */
export function NavigationProvider({ navigate, children }: { navigate: Navigate; children: ReactNode }) {
  return <NavigationContext.Provider value={navigate}>{children}</NavigationContext.Provider>;
}

/**
 * The click handler of an in-app link: a plain left click on a same-origin address goes through the
 * router; a modifier key, another button, a target or a foreign address is left to the browser
 * (new tab, download, another site), as for any link.
 */
export function useLinkNavigation() {
  const navigate = useContext(NavigationContext);
  return (event: MouseEvent<HTMLAnchorElement>, href: string, target?: string) => {
    if (!navigate || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (target && target !== '_self') return;
    if (event.currentTarget.hasAttribute('download')) return;
    const url = new URL(href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  };
}

/** The router's navigate for react-aria's own links and menus (ui/aria-providers.tsx). */
export const useNavigate = (): Navigate | null => useContext(NavigationContext);
