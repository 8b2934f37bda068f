import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { AriaProviders } from '../ui/aria-providers';
import { I18nProvider } from './i18n-provider';
import type { Locale } from './locale';
import { loadSignedInMessages } from './messages';

/**
 * Test helper: loads the real locale file (both parts) first so the provider renders synchronously,
 * then renders `ui` inside it. Tests exercise the same messages users see.
 */
export async function renderWithI18n(
  ui: ReactElement,
  { locale = 'de', ...options }: { locale?: Locale } & Omit<RenderOptions, 'wrapper'> = {},
): Promise<RenderResult> {
  await loadSignedInMessages(locale);
  // react-aria's locale as the signed-in shell sets it (ui/aria-providers.tsx).
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <I18nProvider initialLocale={locale}>
      <AriaProviders>{children}</AriaProviders>
    </I18nProvider>
  );
  return render(ui, { wrapper: Wrapper, ...options });
}
