import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { errorText } from './errorText.ts';

/** Asks before a destructive or costly action; shows the failure inline and stays open on error. */
export function ConfirmDialog({
  opened, title, message, confirmLabel, danger = false, onConfirm, onClose,
}: {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>{title}</Text>} size="md">
      <Stack gap="md">
        <Text size="sm">{message}</Text>
        {error !== null && (
          <Alert color="red" variant="light" role="alert">
            {errorText(t, error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={busy} onClick={() => void confirm()} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
