import { useState } from 'react';
import { Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components/Menu';
import { Button as AriaButton } from 'react-aria-components/Button';
import { useT } from '../i18n/i18n-context';
import { buttonClassName } from '../ui/button';
import { cx } from '../ui/class-names';
import { CheckIcon } from '../ui/icons';
import { popoverClassName, listItemClassName } from '../ui/select';
import { navIcons } from './nav-icons';
import { THEMES, applyTheme, isTheme, readTheme } from './theme';

export function ThemeMenu() {
  const t = useT();
  const [theme, setTheme] = useState(readTheme);
  return (
    <MenuTrigger>
      <AriaButton aria-label={t('nav.theme')} className={buttonClassName('ghost', 'md', true)}>
        {navIcons.theme}
      </AriaButton>
      <Popover placement="bottom end" className={popoverClassName}>
        <Menu
          aria-label={t('nav.theme')}
          selectionMode="single"
          selectedKeys={[theme]}
          onSelectionChange={(keys) => {
            const [next] = keys;
            if (isTheme(next)) {
              applyTheme(next);
              setTheme(next);
            }
          }}
          className="max-h-[300px] overflow-auto p-1 outline-none"
        >
          {THEMES.map((name) => (
            <MenuItem key={name} id={name} className={cx(listItemClassName, 'flex items-center gap-2')}>
              {({ isSelected }) => (
                <>
                  <span
                    className="size-4 rounded-full border border-border"
                    data-theme={name}
                    style={{ background: 'var(--primary)' }}
                    aria-hidden="true"
                  />
                  <span className="flex-1">{t(`theme.${name}`)}</span>
                  {isSelected && <CheckIcon />}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
