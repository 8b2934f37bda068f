import { Link } from 'react-aria-components/Link';
import type { ReactNode } from 'react';
import { useT } from '../i18n/i18n-context';
import { cx } from './class-names';
import { ChevronLeftIcon } from './icons';

export interface PageHeaderProps {
  title: ReactNode;
  description?: ReactNode;
  /** Back link target; navigation goes through react-aria's RouterProvider (set up by the app shell). */
  backHref?: string;
  /** Defaults to 'Zurück'. */
  backLabel?: string;
  actions?: ReactNode;
  className?: string;
}

/** Page title (the page's only h1), optional back link above it and actions on the right. */
export function PageHeader({ title, description, backHref, backLabel, actions, className }: PageHeaderProps) {
  const t = useT();
  return (
    <header className={cx('mb-4 flex flex-col gap-2', className)}>
      {backHref && (
        <Link
          href={backHref}
          className="inline-flex min-h-11 w-fit items-center gap-1 rounded text-sm font-medium text-primary no-underline outline-none data-[hovered]:underline data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus"
        >
          <ChevronLeftIcon size={18} />
          {backLabel ?? t('ui.common.back')}
        </Link>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold text-fg">{title}</h1>
          {description && <p className="mt-1 text-muted">{description}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
      </div>
    </header>
  );
}
