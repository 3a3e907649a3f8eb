/**
 * The frame of every small form dialog: title, the API's refusal above the fields (FormError), an
 * optional intro, the fields, and Cancel / submit. The form itself (values, validation, submit)
 * stays with the caller. A refused submit brings the first field to fix, or the refusal, into view
 * (revealProblems.ts).
 */
import type { FormEventHandler, ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { FormError } from './FormError.tsx';
import { useRevealProblems } from './revealProblems.ts';

export function FormModal({ title, intro, failure, submitLabel, submitting, submitTestId, onSubmit, onClose, children }: {
  title: string;
  intro?: string | undefined;
  /** The last refusal that belongs to no field (shown above the fields). */
  failure: unknown;
  submitLabel: string;
  submitting: boolean;
  submitTestId?: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useT();
  const [formRef, submitAndReveal] = useRevealProblems(onSubmit, submitting);
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{title}</Text>} size="md">
      <form ref={formRef} onSubmit={submitAndReveal} noValidate>
        <Stack gap="md">
          <FormError error={failure} />
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
          {children}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={submitting} data-testid={submitTestId}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
