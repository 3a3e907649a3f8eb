import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LoginRequest } from '@gd/shared/schemas/auth';
import { api } from '../../api/client.ts';
import { safeNext } from '../../i18n/languagePath.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function LoginPage() {
  const { t } = useT();
  usePageTitle(t('auth.login.title'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const expired = useSession((s) => s.expired);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: schemaValidator(LoginRequest, t),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('login', { body: values });
      await useSession.getState().load();
      await navigate(safeNext(params.get('next')) ?? '/', { replace: true });
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['email', 'password']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        <div>
          <Title order={1} fz={22} id="login-title">
            {t('auth.login.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('auth.login.subtitle')}
          </Text>
        </div>
        {expired && failure === null && (
          <Alert color="yellow" variant="light" role="status">
            {t('auth.login.expired')}
          </Alert>
        )}
        <FormError error={failure} />
        <TextInput label={t('fields.email')} type="email" autoComplete="username" required autoFocus {...form.getInputProps('email')} />
        <div>
          <PasswordField label={t('fields.password')} autoComplete="current-password" required {...form.getInputProps('password')} />
          <Group justify="flex-end" mt={6}>
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('auth.login.forgot')}
            </Anchor>
          </Group>
        </div>
        <Button type="submit" fullWidth loading={form.submitting} size="md">
          {t('auth.login.submit')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('auth.login.noAccount')}{' '}
          <Anchor component={Link} to="/register" fw={500}>
            {t('auth.login.register')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
