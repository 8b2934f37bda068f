import { useT, useLocale } from '../i18n/i18n-context';
import { isLocale } from '../i18n/locale';
import { ToggleButtonGroup } from '../ui/toggle-button-group';

/** Spec 1 §2: the switch is shown on localhost, dev and int hosts only; production users get German. */
export function isLanguageSwitchHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || /(^|[.-])(dev|int)([.-]|$)/i.test(hostname);
}

export function LanguageSwitch() {
  const t = useT();
  const { locale, setLocale } = useLocale();
  if (!isLanguageSwitchHost(window.location.hostname)) return null;
  return (
    <ToggleButtonGroup
      aria-label={t('nav.language')}
      value={locale}
      onChange={(id) => isLocale(id) && setLocale(id)}
      items={[
        { id: 'de', label: t('nav.languageDe') },
        { id: 'en', label: t('nav.languageEn') },
      ]}
    />
  );
}
