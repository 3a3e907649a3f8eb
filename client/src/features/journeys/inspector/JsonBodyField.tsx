/**
 * A JSON body template with a live check (valid JSON with samples in place, and only known
 * placeholders: the launch's own check, postbackBody.ts bodyStatus) and placeholder insertion.
 */
import { useRef } from 'react';
import { Button, Group, Menu, Text, Textarea } from '@mantine/core';
import { IconBraces, IconCheck, IconAlertTriangle } from '@tabler/icons-react';
import { POSTBACK_TEMPLATES } from '@gd/shared/journey/postback';
import { useT } from '../../../i18n/useT.ts';
import { useDraft } from '../../../ui/draft.tsx';
import { bodyStatus, insertAt } from './postbackBody.ts';

export function JsonBodyField({ value, error, readOnly, onCommit }: { value: string; error?: string; readOnly: boolean; onCommit: (text: string) => void }) {
  const { t } = useT();
  const draft = useDraft(value, onCommit);
  const area = useRef<HTMLTextAreaElement>(null);
  const status = bodyStatus(draft.value);
  const valid = status.kind === 'valid';
  const insert = (name: string) => {
    const el = area.current;
    const { text, caret } = insertAt(draft.value, `{{${name}}}`, el?.selectionStart ?? draft.value.length, el?.selectionEnd ?? draft.value.length);
    draft.change(text);
    draft.flush();
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(caret, caret);
    });
  };
  return (
    <div>
      <Textarea
        ref={area}
        label={t('journeyEditor.inspector.bodyJson')}
        value={draft.value}
        onChange={(e) => draft.change(e.currentTarget.value)}
        onBlur={draft.end}
        autosize
        minRows={4}
        maxRows={14}
        spellCheck={false}
        error={error}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      />
      <Group justify="space-between" mt={6} gap="xs">
        <Text size="xs" c={valid ? 'teal' : 'red'} role="status" style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          {valid ? <IconCheck size={13} /> : <IconAlertTriangle size={13} />}
          {status.kind === 'valid'
            ? t('journeyEditor.inspector.templateValid')
            : status.kind === 'unknown'
              ? t('journeyEditor.inspector.templateUnknown', { names: status.names.join(', ') })
              : t('journeyEditor.inspector.templateInvalid')}
        </Text>
        {!readOnly && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" size="compact-xs" leftSection={<IconBraces size={12} />}>
                {t('journeyEditor.inspector.placeholders')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {POSTBACK_TEMPLATES.map((name) => (
                <Menu.Item key={name} onClick={() => insert(name)} ff="monospace" fz="xs">
                  {`{{${name}}}`}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </div>
  );
}
