/** Header language menu: the same path under /<lang>/..., saved, and on the profile. */
import { ActionIcon, Menu, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { LANGUAGES, type Language } from '@gd/shared/language';
import { api } from '../api/client.ts';
import { switchLanguage } from '../i18n/languageStore.ts';
import { useT } from '../i18n/useT.ts';
import { useSession } from '../session/store.ts';

export function LanguageMenu() {
  const { t, lang } = useT();

  const choose = async (next: Language) => {
    if (next === lang) return;
    await switchLanguage(next);
    const { meta, reload } = useSession.getState();
    if (meta && meta.user.language !== next) {
      // The profile language is the user's language for e-mails; keep it in step. Best effort.
      await api.call('updateProfile', { body: { language: next } }).then(reload, () => undefined);
    }
  };

  return (
    <Menu position="bottom-end" width={200} shadow="md">
      <Menu.Target>
        <Tooltip label={t('shell.language')}>
          <ActionIcon variant="default" size="lg" aria-label={t('shell.language')} data-testid="language-menu">
            <IconLanguage size={18} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('shell.language')}</Menu.Label>
        {LANGUAGES.map((code) => (
          <Menu.Item
            key={code}
            onClick={() => void choose(code)}
            lang={code}
            rightSection={code === lang ? <IconCheck size={14} /> : <Text size="xs" c="dimmed">{code.toUpperCase()}</Text>}
            aria-current={code === lang ? 'true' : undefined}
          >
            {t(`language.${code}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
