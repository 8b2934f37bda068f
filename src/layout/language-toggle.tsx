import { useT, useLocale } from '../i18n/i18n-context';
import { isLocale } from '../i18n/locale';
import { ToggleButtonGroup } from '../ui/toggle-button-group';

/** The German/English buttons; loaded by LanguageSwitch only on the hosts that show them. */
export function LanguageToggle() {
  const t = useT();
  const { locale, setLocale } = useLocale();
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
