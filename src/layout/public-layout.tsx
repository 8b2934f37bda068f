import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { LanguageSwitch } from './language-switch';

/** Frame of the signed-out pages: brand, one card, the language switch where the spec shows it. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const t = useT();
  return (
    <div className="flex min-h-dvh flex-col bg-bg">
      <header className="flex items-center justify-between gap-4 px-6 py-4">
        <span className="flex items-center gap-3 text-lg font-semibold text-fg">
          <img src="/icons/icon.svg" alt="" width={36} height={36} className="rounded-lg" />
          {t('app.name')}
        </span>
        <LanguageSwitch />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-8">{children}</div>
      </main>
    </div>
  );
}
