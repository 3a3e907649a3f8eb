/**
 * The message's communication parameter values. The parameters themselves are defined per app
 * (/manage/communication-parameters): the author picks one of them and gives it a value, from the
 * parameter's list for a `valueSelection` parameter, free text for an `openText` one. A name the
 * app no longer defines (deleted since) stays visible with its value and the validation's problem,
 * so the author can remove it; submit refuses it too. Names carry the `communicationParameter__`
 * prefix (shown without it).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Anchor, Button, Code, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { COMMUNICATION_PARAMETER_PREFIX } from '@gd/shared/message/draft';
import type { CommunicationParameterRecord } from '@gd/shared/schemas/messageSettings';
import { useT } from '../../../i18n/useT.ts';
import { useSession } from '../../../session/store.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { Field, useForm } from './formContext.tsx';

const withoutPrefix = (name: string) => name.slice(COMMUNICATION_PARAMETER_PREFIX.length);

/** The value input of one parameter: its values for a value selection, text otherwise. */
function ValueInput({ def, value, onChange, readOnly, error, label }: {
  def: CommunicationParameterRecord | undefined; value: string; onChange: (v: string) => void; readOnly: boolean; error?: string; label?: string;
}) {
  const { t } = useT();
  const common = { style: { flex: '1 1 50%' }, label, 'aria-label': label ? undefined : t('messageEditor.parameters.value'), error };
  if (def?.type === 'valueSelection') {
    return <Select {...common} data={def.values} value={value || null} onChange={(v) => onChange(v ?? '')} readOnly={readOnly} allowDeselect={false} placeholder={t('messageEditor.parameters.value')} comboboxProps={{ withinPortal: true }} />;
  }
  return <TextInput {...common} placeholder={t('messageEditor.parameters.value')} value={value} readOnly={readOnly} maxLength={2000} onChange={(e) => onChange(e.currentTarget.value)} />;
}

export function ParametersField() {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt } = useForm();
  const appId = useSession((s) => s.currentAppId) ?? '';
  const defined = useApiQuery('listCommunicationParameters', { params: { appId }, scope: 'app', enabled: appId !== '' });
  const defs = new Map((defined.data?.parameters ?? []).map((p) => [p.name, p]));
  const [name, setName] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const entries = Object.entries(draft.parameters);
  const choices = [...defs.values()].filter((p) => !(p.name in draft.parameters)).map((p) => ({ value: p.name, label: `${p.label} (${withoutPrefix(p.name)})` }));
  const picked = name ? defs.get(name) : undefined;

  const setParameters = (next: Record<string, string>) => edit((d) => ({ ...d, parameters: next }));
  const add = () => {
    if (!name || name in draft.parameters) return;
    setParameters({ ...draft.parameters, [name]: value });
    setName(null);
    setValue('');
  };

  return (
    <Stack gap="sm">
      <Text size="xs" c="dimmed">
        {t('messageEditor.parameters.hint', { prefix: COMMUNICATION_PARAMETER_PREFIX, example: `{{${COMMUNICATION_PARAMETER_PREFIX}discount}}` })}
      </Text>
      {entries.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="no-parameters">
          {t('messageEditor.parameters.none')}
        </Text>
      )}
      {entries.map(([key, v]) => (
        <Field key={key} path={`parameters.${key}`}>
          <Group gap="sm" align="flex-start" wrap="nowrap" data-testid="message-parameter" data-name={key}>
            <Stack gap={0} style={{ flex: '1 1 50%', minWidth: 0 }}>
              <Text size="sm" fw={500} truncate="end">{defs.get(key)?.label ?? withoutPrefix(key)}</Text>
              <Code style={{ overflowWrap: 'anywhere', background: 'transparent', padding: 0 }} c="dimmed" aria-label={t('messageEditor.parameters.name')}>
                {key}
              </Code>
            </Stack>
            <ValueInput
              def={defs.get(key)}
              value={v}
              readOnly={readOnly}
              error={errorAt(`parameters.${key}`)}
              onChange={(next) => setParameters({ ...draft.parameters, [key]: next })}
            />
            {!readOnly && (
              <Tooltip label={t('messageEditor.parameters.remove', { name: withoutPrefix(key) })} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="lg"
                  aria-label={t('messageEditor.parameters.remove', { name: withoutPrefix(key) })}
                  onClick={() => {
                    const { [key]: _removed, ...rest } = draft.parameters;
                    setParameters(rest);
                  }}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Field>
      ))}
      {!readOnly && defined.data && defs.size === 0 && (
        <Text size="sm" c="dimmed" data-testid="no-defined-parameters">
          {t('messageEditor.parameters.noneDefined')}{' '}
          <Anchor component={Link} to="/manage/communication-parameters" size="sm">
            {t('messageEditor.parameters.manage')}
          </Anchor>
        </Text>
      )}
      {!readOnly && choices.length > 0 && (
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <Select
            style={{ flex: '1 1 50%' }}
            label={t('messageEditor.parameters.name')}
            data={choices}
            value={name}
            searchable
            onChange={(v) => {
              setName(v);
              setValue('');
            }}
            data-testid="parameter-picker"
          />
          <ValueInput def={picked} value={value} onChange={setValue} readOnly={!name} label={t('messageEditor.parameters.value')} />
          <Button variant="light" leftSection={<IconPlus size={14} />} disabled={!name} onClick={add} style={{ flexShrink: 0 }}>
            {t('messageEditor.parameters.add')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
