/**
 * Language choice on the public pages: a native select, so the login chunk carries no menu or
 * popover code (floating UI) — the shell has the full language menu.
 */
import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { LANGUAGES, isLanguage } from '@gd/shared/language';
import { switchLanguage } from '../../i18n/languageStore.ts';
import { useT } from '../../i18n/useT.ts';

export function AuthLanguageSelect() {
  const { t, lang } = useT();
  return (
    <NativeSelect
      aria-label={t('shell.language')}
      data-testid="language-menu"
      size="xs"
      w={170}
      leftSection={<IconLanguage size={14} />}
      value={lang}
      onChange={(event) => {
        const next = event.currentTarget.value;
        if (isLanguage(next)) void switchLanguage(next);
      }}
      data={LANGUAGES.map((code) => ({ value: code, label: t(`language.${code}`) }))}
    />
  );
}
