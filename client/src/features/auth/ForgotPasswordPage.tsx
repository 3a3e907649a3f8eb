/**
 * /forgot-password asks for the e-mail and always answers "if the address exists we sent a
 * link" (no account discovery). /forgot-password?token=... is the reset page of that link.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconCircleCheck, IconMailForward } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { ForgotPasswordRequest, ResetPasswordRequest } from '@gd/shared/schemas/auth';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { PasswordChecklist } from '../../ui/PasswordChecklist.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

export default function ForgotPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <ResetForm token={token} /> : <RequestForm />;
}

function RequestForm() {
  const { t, lang } = useT();
  usePageTitle(t('auth.forgot.title'));
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { email: '' }, validate: schemaValidator(ForgotPasswordRequest, t) });

  const submit = form.onSubmit(async ({ email }) => {
    setFailure(null);
    try {
      await api.call('forgotPassword', { body: { email, language: lang } });
      setSentTo(email.trim());
    } catch (error) {
      setFailure(error);
    }
  });

  if (sentTo !== null) {
    return (
      <Stack gap="md" align="flex-start" role="status">
        <IconMailForward size={36} color="var(--mantine-color-brand-6)" aria-hidden />
        <Title order={1} fz={22}>
          {t('auth.forgot.sentTitle')}
        </Title>
        <Text size="sm">{t('auth.forgot.sent', { email: sentTo })}</Text>
        <Anchor component={Link} to="/login" size="sm">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <Stack gap="md">
        <div>
          <Title order={1} fz={22} id="forgot-title">
            {t('auth.forgot.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('auth.forgot.subtitle')}
          </Text>
        </div>
        <FormError error={failure} />
        <TextInput label={t('fields.email')} type="email" autoComplete="email" required autoFocus {...form.getInputProps('email')} />
        <Button type="submit" fullWidth loading={form.submitting}>
          {t('auth.forgot.submit')}
        </Button>
        <Anchor component={Link} to="/login" size="sm" ta="center">
          {t('auth.backToLogin')}
        </Anchor>
      </Stack>
    </form>
  );
}

const LINK_PROBLEMS = new Set<unknown>([ErrorCode.FORGOT_PASSWORD_ERROR, ErrorCode.TOKEN_EXPIRED, ErrorCode.TOKEN_NOT_EXIST, ErrorCode.ACTIVATION_TOKEN_INVALID]);

function ResetForm({ token }: { token: string }) {
  const { t } = useT();
  usePageTitle(t('auth.reset.title'));
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: (values) => {
      const errors = schemaValidator(ResetPasswordRequest.pick({ password: true }), t, { password: 'validation.password' })(values);
      if (!errors.password && values.confirm !== values.password) errors.confirm = t('validation.passwordsDiffer');
      return errors;
    },
  });

  const submit = form.onSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await api.call('resetPassword', { body: { token, password } });
      setDone(true);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['password']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  if (done) {
    return (
      <Stack gap="md" align="flex-start" role="status">
        <IconCircleCheck size={36} color="var(--mantine-color-teal-6)" aria-hidden />
        <Title order={1} fz={22}>
          {t('auth.reset.doneTitle')}
        </Title>
        <Text size="sm">{t('auth.reset.done')}</Text>
        <Button component={Link} to="/login">
          {t('auth.login.submit')}
        </Button>
      </Stack>
    );
  }

  const badLink = failure instanceof ApiError && LINK_PROBLEMS.has(failure.code);
  return (
    <form onSubmit={submit} noValidate aria-labelledby="reset-title">
      <Stack gap="md">
        <div>
          <Title order={1} fz={22} id="reset-title">
            {t('auth.reset.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('auth.reset.subtitle')}
          </Text>
        </div>
        <FormError error={failure} />
        {badLink && (
          <Alert variant="light" color="gray">
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('auth.reset.requestNew')}
            </Anchor>
          </Alert>
        )}
        <div>
          <PasswordField label={t('fields.newPassword')} autoComplete="new-password" required autoFocus aria-describedby="reset-password-rules" {...form.getInputProps('password')} />
          <Stack mt="xs">
            <PasswordChecklist password={form.values.password} id="reset-password-rules" />
          </Stack>
        </div>
        <PasswordField label={t('fields.confirmPassword')} autoComplete="new-password" required {...form.getInputProps('confirm')} />
        <Button type="submit" fullWidth loading={form.submitting}>
          {t('auth.reset.submit')}
        </Button>
      </Stack>
    </form>
  );
}
