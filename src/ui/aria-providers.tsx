import type { ReactNode } from 'react';
import { I18nProvider, RouterProvider } from 'react-aria-components';
import { useLocale } from '../i18n/i18n-context';
import { ARIA_LOCALE } from '../i18n/locale';
import { useNavigate } from './navigation';

/**
 * What react-aria's widgets need from the app: the language (date and number fields, their own
 * built-in strings) and the router (links and menu items with an href navigate without a reload).
 * Rendered by the signed-in shell and the kit's dialog, the places react-aria's widgets live, so the
 * first route (sign-in, native elements only) does not load react-aria (issue 11).
 */
export function AriaProviders({ children }: { children: ReactNode }) {
  const { locale } = useLocale();
  const navigate = useNavigate();
  const content = <I18nProvider locale={ARIA_LOCALE[locale]}>{children}</I18nProvider>;
  return navigate ? <RouterProvider navigate={navigate}>{content}</RouterProvider> : content;
}
