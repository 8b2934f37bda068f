import { useState } from 'react';
import { Link } from 'react-aria-components/Link';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Disclosure, DisclosurePanel, Heading } from 'react-aria-components/Disclosure';
import { useLocation, useRouter } from '@tanstack/react-router';
import { getRuntimeConfig } from '../api/config';
import { useT } from '../i18n/i18n-context';
import { cx } from '../ui/class-names';
import { ChevronDownIcon } from '../ui/icons';
import { useSession } from '../auth/session-context';
import { navIcons } from './nav-icons';
import { isCurrent, navFor, type NavItem } from './nav-items';

const itemClass = (current: boolean) =>
  cx(
    'flex min-h-11 items-center gap-3 rounded-md px-3 py-2 text-[15px] font-medium no-underline outline-none',
    'data-[hovered]:bg-sidebar-active data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-[-2px] data-[focus-visible]:outline-focus',
    current ? 'bg-sidebar-active text-sidebar-fg' : 'text-sidebar-fg/85',
  );

function NavLink({ item, pathname, onNavigate }: { item: NavItem; pathname: string; onNavigate?: () => void }) {
  const t = useT();
  const current = isCurrent(item.href, pathname);
  return (
    <li>
      <Link href={item.href} aria-current={current ? 'page' : undefined} className={itemClass(current)} onPress={onNavigate}>
        {navIcons[item.key]}
        <span>{t(`nav.${item.key}`)}</span>
      </Link>
    </li>
  );
}

/** Imprint, privacy and contact (spec 1 §1); each deployment configures its own pages in /config.json. */
function FooterLinks() {
  const t = useT();
  const { links } = getRuntimeConfig();
  const entries = (['imprint', 'privacy', 'contact'] as const).filter((key) => links[key]);
  if (entries.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {entries.map((key) => {
        const href = links[key];
        const external = /^https?:/.test(href);
        return (
          <li key={key}>
            <Link
              href={href}
              target={external ? '_blank' : undefined}
              rel={external ? 'noopener noreferrer' : undefined}
              className="inline-flex min-h-11 items-center text-sidebar-fg/80 underline-offset-2 outline-none data-[hovered]:underline data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus"
            >
              {t(`app.footer.${key}`)}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** The menu (spec 1 §2): 258 px, with the signed-in user's name and company role at its foot. */
export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const session = useSession();
  const { pathname } = useLocation();
  const router = useRouter();
  const nav = navFor(session, (href) => href in router.routesByPath);
  const inAdmin = nav.administration.some((i) => isCurrent(i.href, pathname));
  const [adminOpen, setAdminOpen] = useState(inAdmin);

  return (
    <div className="flex h-full w-[258px] flex-col bg-sidebar text-sidebar-fg">
      <div className="flex items-center gap-3 px-5 py-5">
        <img src="/icons/icon.svg" alt="" width={32} height={32} className="rounded-md" />
        <span className="text-lg font-semibold">{t('app.name')}</span>
      </div>
      <nav aria-label={t('nav.main')} className="flex-1 overflow-y-auto px-3 pb-4">
        <ul className="flex flex-col gap-1">
          {nav.main.map((item) => (
            <NavLink key={item.key} item={item} pathname={pathname} onNavigate={onNavigate} />
          ))}
          {nav.administration.length > 0 && (
            <li>
              <Disclosure isExpanded={adminOpen || inAdmin} onExpandedChange={setAdminOpen}>
                <Heading level={2} className="m-0">
                  <AriaButton slot="trigger" className={cx(itemClass(false), 'w-full cursor-pointer text-left')}>
                    {navIcons.administration}
                    <span className="flex-1">{t('nav.administration')}</span>
                    <ChevronDownIcon className={cx('transition-transform', (adminOpen || inAdmin) && 'rotate-180')} />
                  </AriaButton>
                </Heading>
                <DisclosurePanel>
                  <ul className="ml-4 mt-1 flex flex-col gap-1 border-l border-sidebar-fg/20 pl-2">
                    {nav.administration.map((item) => (
                      <NavLink key={item.key} item={item} pathname={pathname} onNavigate={onNavigate} />
                    ))}
                  </ul>
                </DisclosurePanel>
              </Disclosure>
            </li>
          )}
          {nav.after.map((item) => (
            <NavLink key={item.key} item={item} pathname={pathname} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
      <div className="border-t border-sidebar-fg/15 px-5 py-4" data-testid="sidebar-user">
        <p className="truncate font-semibold">{session.claims?.name}</p>
        <p className="truncate text-sm text-sidebar-fg/75">{session.claims?.role_company}</p>
        <FooterLinks />
      </div>
    </div>
  );
}
