import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';
import { errorText } from './errorText.ts';

/** A form-level failure, announced to assistive technology (`data-form-error`: revealProblems.ts scrolls to it). */
export function FormError({ error }: { error: unknown }) {
  const { t } = useT();
  if (error === null || error === undefined) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-form-error data-testid="form-error">
      {errorText(t, error)}
    </Alert>
  );
}
