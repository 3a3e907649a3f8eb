/**
 * An SFTP server's host key fingerprint in a form (the import source and the report target forms;
 * the logic is hostKey.ts): the pinned fingerprint read-only with "Replace" and "Forget", or a
 * field to paste one (optional: empty trusts the key of the first connection). A host or port
 * change is said before saving, since saving then forgets the pinned key.
 */
import { useState } from 'react';
import { Button, Group, Input, Stack, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { useT } from '../i18n/useT.ts';
import { CopyField } from './CopyField.tsx';
import type { HostKeyState, PinnedHostKey } from './hostKey.ts';

export interface HostKeyFieldProps {
  state: HostKeyState;
  pinned: PinnedHostKey | null;
  /** The typed fingerprint's input props (form.getInputProps). */
  input: GetInputPropsReturnType;
  /** Forget (true) or keep (false) the pinned key; both clear what was typed. */
  onForget: (forget: boolean) => void;
  /** Empties the typed fingerprint. */
  onClearTyped: () => void;
}

export function HostKeyField({ state, pinned, input, onForget, onClearTyped }: HostKeyFieldProps) {
  const { t } = useT();
  const [replacing, setReplacing] = useState(false);
  const label = t('imports.hostKey.label');
  if (pinned && state === 'pinned' && !replacing) {
    return (
      <Input.Wrapper label={label} description={t('imports.hostKey.pinned')} inputWrapperOrder={['label', 'input', 'description']}>
        <Group gap="sm" justify="space-between" wrap="nowrap" data-testid="host-key-pinned">
          <CopyField value={pinned.fingerprint} label={label} size="sm" maw={420} />
          <Group gap={4} wrap="nowrap">
            <Button size="compact-sm" variant="default" onClick={() => setReplacing(true)}>{t('imports.hostKey.replace')}</Button>
            <Button size="compact-sm" variant="subtle" color="red" onClick={() => onForget(true)}>{t('imports.hostKey.forget')}</Button>
          </Group>
        </Group>
      </Input.Wrapper>
    );
  }
  const note = state === 'forgotten' ? t('imports.hostKey.forgotten')
    : state === 'serverChanged' && pinned ? t('imports.hostKey.serverChanged', { fingerprint: pinned.fingerprint })
    : pinned ? t('imports.hostKey.replacing', { fingerprint: pinned.fingerprint })
    : t('imports.hostKey.firstUse');
  const undo = state === 'forgotten' || (pinned && (state === 'given' || replacing));
  return (
    <Stack gap={4}>
      <TextInput
        label={label}
        placeholder="SHA256:…"
        description={note}
        inputWrapperOrder={['label', 'input', 'description', 'error']}
        autoComplete="off"
        spellCheck={false}
        classNames={{ input: 'gd-mono' }}
        data-testid="host-key-input"
        {...input}
      />
      {undo && (
        <Group justify="flex-end">
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => {
              setReplacing(false);
              onClearTyped();
              onForget(false);
            }}
          >
            {t('imports.hostKey.keep')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
