import { useState, type ReactNode } from 'react';
import { Modal, ModalOverlay, Dialog as AriaDialog } from 'react-aria-components/Modal';
import { useT } from '../i18n/i18n-context';
import { Button } from '../ui/button';
import { useConnection } from '../offline/online-status';
import { useSession } from '../auth/session-context';
import { logout } from '../auth/auth-api';
import { OutboxButton } from '../offline/outbox-button';
import { useOutbox } from '../offline/outbox-react';
import { AriaProviders } from '../ui/aria-providers';
import { Dialog } from '../ui/dialog';
import { LanguageSwitch } from './language-switch';
import { navIcons } from './nav-icons';
import { Sidebar } from './sidebar';
import { ThemeMenu } from './theme-menu';
import { useMediaQuery } from './use-media-query';

/**
 * Signed-in frame: the 258 px menu beside the page on wide screens; on tablets (below 1280 px) the
 * menu collapses behind a button into a drawer, so tables keep the whole width.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const t = useT();
  const session = useSession();
  const connection = useConnection();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const wide = useMediaQuery('(min-width: 80rem)');
  const [loggingOut, setLoggingOut] = useState(false);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const { counts } = useOutbox();
  // Ends the session on the server and drops this user's tokens and cached data; the signed-in
  // layout then leaves for /login.
  const signOut = async () => {
    setConfirmLogout(false);
    setLoggingOut(true);
    await logout(session.claims?.sub);
  };

  return (
    <AriaProviders>
      <div className="flex min-h-dvh bg-bg">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-surface focus:p-3"
        >
          {t('app.skipToContent')}
        </a>
        {/* Only where it shows (xl, 1280 px up): below, the menu is the drawer's, and a hidden copy
            cost a phone's or tablet's start the menu's whole render. */}
        {wide && (
          <aside className="sticky top-0 hidden h-dvh shrink-0 xl:block">
            <Sidebar />
          </aside>
        )}
        <ModalOverlay isOpen={drawerOpen} onOpenChange={setDrawerOpen} isDismissable className="fixed inset-0 z-40 bg-black/40 xl:hidden">
          <Modal className="h-full w-fit outline-none">
            <AriaDialog aria-label={t('nav.main')} className="h-full outline-none">
              <Sidebar onNavigate={() => setDrawerOpen(false)} />
            </AriaDialog>
          </Modal>
        </ModalOverlay>
        <div className="flex min-w-0 flex-1 flex-col">
          <header className="sticky top-0 z-30 flex h-16 items-center gap-2 border-b border-border bg-surface px-3 sm:px-5">
            <Button variant="ghost" iconOnly aria-label={t('nav.openMenu')} onPress={() => setDrawerOpen(true)} className="xl:hidden">
              {navIcons.menu}
            </Button>
            <div className="flex-1" />
            {connection !== 'online' && (
              <span
                role="status"
                data-testid="connection-status"
                // The text hides on a phone-sized screen; the name stays.
                aria-label={t(connection === 'offline' ? 'app.offlineShort' : 'offline.unreachableShort')}
                className="inline-flex items-center gap-2 rounded-full bg-warning-soft px-3 py-1 text-sm font-medium text-warning"
              >
                {navIcons.offline}
                <span className="hidden sm:inline">{t(connection === 'offline' ? 'app.offlineShort' : 'offline.unreachableShort')}</span>
              </span>
            )}
            <OutboxButton />
            <LanguageSwitch />
            <ThemeMenu />
            <Button
              variant="ghost"
              // Its text hides on a phone-sized screen; the name stays.
              aria-label={t('nav.logout')}
              isPending={loggingOut}
              // Writes still waiting stay on the device for this user; say so before leaving.
              onPress={() => (counts.open > 0 ? setConfirmLogout(true) : void signOut())}
            >
              {navIcons.logout}
              <span className="hidden sm:inline">{t('nav.logout')}</span>
            </Button>
          </header>
          <Dialog
            isOpen={confirmLogout}
            onOpenChange={setConfirmLogout}
            role="alertdialog"
            size="sm"
            title={t('nav.logoutPending.title')}
            actions={
              <>
                <Button variant="secondary" autoFocus onPress={() => setConfirmLogout(false)}>
                  {t('nav.logoutPending.stay')}
                </Button>
                <Button variant="danger" onPress={() => void signOut()}>
                  {t('nav.logoutPending.confirm')}
                </Button>
              </>
            }
          >
            <p>{t('nav.logoutPending.text', { count: counts.open })}</p>
          </Dialog>
          <main id="main" tabIndex={-1} className="flex-1 px-4 py-5 outline-none sm:px-6 lg:px-8">
            {children}
          </main>
        </div>
      </div>
    </AriaProviders>
  );
}
