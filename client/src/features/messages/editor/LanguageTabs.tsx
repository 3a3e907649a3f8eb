/**
 * The languages of the message as tabs (the default one marked): a language added from a list of
 * common ISO codes (named by Intl.DisplayNames in the interface language), the selected one made
 * the default or removed (never the last). `children` is the selected language's content.
 */
import type { ReactNode } from 'react';
import { Badge, Button, Group, Select, Tabs, Text, Tooltip } from '@mantine/core';
import { IconStar, IconTrash } from '@tabler/icons-react';
import { MAX_MESSAGE_LANGUAGES } from '@gd/shared/message/draft';
import { useT } from '../../../i18n/useT.ts';
import { addLanguage, removeLanguage } from './draftEdits.ts';
import { Field, useForm } from './formContext.tsx';
import { addableLanguages, languageName } from './languages.ts';
import { anyUnder } from './problems.ts';
import { TabMarks } from './VariantTabs.tsx';

export function LanguageTabs({ variantId, selected, onSelect, children }: { variantId: string; selected: string; onSelect: (lang: string) => void; children: ReactNode }) {
  const { t, lang: ui } = useT();
  const { draft, readOnly, edit, errorAt, problemsUnder, changedPaths } = useForm();
  const name = (code: string) => languageName(code, ui);
  const isDefault = selected === draft.defaultLanguage;
  const canRemove = draft.languages.length > 1;
  const canAdd = draft.languages.length < MAX_MESSAGE_LANGUAGES;
  const missingHere = errorAt(`variants.${variantId}.content.${selected}`);
  const defaultError = errorAt('defaultLanguage');

  return (
    <Tabs value={selected} onChange={(v) => v && onSelect(v)} keepMounted={false} data-testid="language-tabs">
      <Group gap="sm" wrap="nowrap" align="flex-end" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Tabs.List aria-label={t('messageEditor.languages.label')} style={{ flex: 1, borderBottom: 0, marginBottom: -1 }}>
          {draft.languages.map((code) => (
            <Tabs.Tab
              key={code}
              value={code}
              rightSection={<TabMarks problems={problemsUnder(`variants.${variantId}.content.${code}`).length} changed={anyUnder(changedPaths, `variants.${variantId}.content.${code}`)} />}
              data-language={code}
            >
              {name(code)}
              {code === draft.defaultLanguage && (
                <Badge size="xs" variant="light" ml={6} tt="none" radius="sm">
                  {t('messageEditor.languages.default')}
                </Badge>
              )}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {!readOnly && (
          <Tooltip label={t('messageEditor.languages.limit', { max: MAX_MESSAGE_LANGUAGES })} disabled={canAdd} withArrow>
            <Select
              aria-label={t('messageEditor.languages.add')}
              placeholder={t('messageEditor.languages.add')}
              data={addableLanguages(draft.languages, ui)}
              value={null}
              searchable
              disabled={!canAdd}
              nothingFoundMessage={t('messageEditor.languages.nothingFound')}
              size="xs"
              w={180}
              mb={6}
              onChange={(code) => {
                if (!code) return;
                edit((d) => addLanguage(d, code));
                onSelect(code);
              }}
              comboboxProps={{ withinPortal: true, width: 240, position: 'bottom-end' }}
              data-testid="add-language"
            />
          </Tooltip>
        )}
      </Group>
      <Tabs.Panel value={selected} pt="sm">
        <Field path="defaultLanguage" exact>
          <Group justify="space-between" gap="xs" mb="sm" wrap="wrap">
            <Text size="xs" c="dimmed" style={{ flex: '1 1 240px' }}>
              {t('messageEditor.languages.defaultHint')}
            </Text>
            {!readOnly && (
              <Group gap="xs">
                {!isDefault && (
                  <Button variant="subtle" size="compact-sm" leftSection={<IconStar size={14} />} onClick={() => edit((d) => (d.defaultLanguage === selected ? d : { ...d, defaultLanguage: selected }))}>
                    {t('messageEditor.languages.makeDefault', { language: name(selected) })}
                  </Button>
                )}
                <Tooltip label={t('messageEditor.languages.removeLast')} disabled={canRemove} withArrow>
                  <Button
                    variant="subtle"
                    color="gray"
                    size="compact-sm"
                    leftSection={<IconTrash size={14} />}
                    disabled={!canRemove}
                    onClick={() => {
                      const next = removeLanguage(draft, selected);
                      edit((d) => removeLanguage(d, selected));
                      onSelect(next.defaultLanguage);
                    }}
                    data-testid="remove-language"
                  >
                    {t('messageEditor.languages.remove', { language: name(selected) })}
                  </Button>
                </Tooltip>
              </Group>
            )}
          </Group>
          {(defaultError ?? missingHere) && (
            <Text size="xs" c="red.7" mb="sm">
              {[defaultError, missingHere].filter(Boolean).join(' ')}
            </Text>
          )}
        </Field>
        {children}
      </Tabs.Panel>
    </Tabs>
  );
}
