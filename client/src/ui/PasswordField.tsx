import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useT } from '../i18n/useT.ts';

/**
 * A password input whose show/hide toggle is labelled in the interface language and without
 * the word "password", so the field is the only control named by its label.
 */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useT();
  return <PasswordInput {...props} visibilityToggleButtonProps={{ 'aria-label': t('common.showCharacters') }} />;
}
