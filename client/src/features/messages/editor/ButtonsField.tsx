/** The buttons of a content: text, action (deeplink, custom URL, change URL, close on tap), link and where it opens. */
import { ActionIcon, Button, Group, Input, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { LinkActionKind, LinkOpeningMode } from '@gd/shared/enums';
import type { MessageButton } from '@gd/shared/message/model';
import { useT } from '../../../i18n/useT.ts';
import { setContentField } from './draftEdits.ts';
import { Field, useForm } from './formContext.tsx';
import { contentPath } from './problems.ts';

const MAX_BUTTONS = 10;
const NEW_BUTTON: MessageButton = { text: '', action: 'deeplink', target_url: '', open_in: 'app' };

export function ButtonsField({ variantId, lang, buttons }: { variantId: string; lang: string; buttons: readonly MessageButton[] }) {
  const { t } = useT();
  const { readOnly, edit, errorAt } = useForm();
  const base = contentPath(variantId, lang, 'buttons');
  const write = (next: MessageButton[]) => edit((d) => setContentField(d, variantId, lang, 'buttons', next));
  const patch = (i: number, change: Partial<MessageButton>) => write(buttons.map((b, j) => (j === i ? { ...b, ...change } : b)));

  return (
    <Input.Wrapper label={t('messageEditor.field.buttons')} labelElement="div" error={errorAt(base)}>
      <Stack gap="xs" mt={4}>
        {buttons.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('messageEditor.button.none')}
          </Text>
        )}
        {buttons.map((b, i) => {
          const number = i + 1;
          const at = (f: keyof MessageButton) => `${base}.${i}.${f}`;
          return (
            <Paper key={i} withBorder radius="sm" p="sm" role="group" aria-label={t('messageEditor.button.label', { number })} data-testid="message-button">
              <Group justify="space-between" mb={6} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {t('messageEditor.button.label', { number })}
                </Text>
                {!readOnly && (
                  <Tooltip label={t('messageEditor.button.remove', { number })} withArrow>
                    <ActionIcon variant="subtle" color="gray" aria-label={t('messageEditor.button.remove', { number })} onClick={() => write(buttons.filter((_, j) => j !== i))}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
                <Field path={at('text')}>
                  <TextInput label={t('messageEditor.button.text')} value={b.text} readOnly={readOnly} maxLength={200} error={errorAt(at('text'))} onChange={(e) => patch(i, { text: e.currentTarget.value })} />
                </Field>
                <Field path={at('action')}>
                  <Select
                    label={t('messageEditor.button.action')}
                    data={LinkActionKind.options.map((a) => ({ value: a, label: t(`messageEditor.button.actions.${a}`) }))}
                    value={b.action}
                    readOnly={readOnly}
                    allowDeselect={false}
                    error={errorAt(at('action'))}
                    onChange={(v) => {
                      const action = LinkActionKind.safeParse(v);
                      if (action.success) patch(i, { action: action.data });
                    }}
                    comboboxProps={{ withinPortal: true }}
                  />
                </Field>
                {b.action !== 'tap' && (
                  <>
                    <Field path={at('target_url')}>
                      <TextInput label={t('messageEditor.button.target')} value={b.target_url} readOnly={readOnly} maxLength={2000} placeholder="https://" error={errorAt(at('target_url'))} onChange={(e) => patch(i, { target_url: e.currentTarget.value })} />
                    </Field>
                    <Field path={at('open_in')}>
                      <Input.Wrapper label={t('messageEditor.button.openIn')} labelElement="div">
                        <div>
                          <SegmentedControl
                            aria-label={t('messageEditor.button.openIn')}
                            data={LinkOpeningMode.options.map((m) => ({ value: m, label: t(`messageEditor.button.openInOptions.${m}`) }))}
                            value={b.open_in}
                            readOnly={readOnly}
                            onChange={(v) => {
                              const mode = LinkOpeningMode.safeParse(v);
                              if (mode.success) patch(i, { open_in: mode.data });
                            }}
                          />
                        </div>
                      </Input.Wrapper>
                    </Field>
                  </>
                )}
              </SimpleGrid>
            </Paper>
          );
        })}
        {!readOnly && buttons.length < MAX_BUTTONS && (
          <Group>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => write([...buttons, NEW_BUTTON])}>
              {t('messageEditor.button.add')}
            </Button>
          </Group>
        )}
      </Stack>
    </Input.Wrapper>
  );
}
