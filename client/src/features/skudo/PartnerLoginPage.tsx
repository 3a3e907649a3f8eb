/**
 * /skudo/login: a partner signs in with the one-time code they were handed or mailed (the mailed
 * link fills it in: ?code=). 20004 (invalid or used) and 20005 (expired) show under the field.
 * Shown in the sign-in pages' card (app/AppRoutes.tsx); success opens /skudo/offers.
 */
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SkudoPartnerLogin } from '@gd/shared/schemas/skudo';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { PartnerTexts } from './PartnerTexts.tsx';

export default function PartnerLoginPage() {
  return (
    <PartnerTexts>
      <LoginForm />
    </PartnerTexts>
  );
}

function LoginForm() {
  const { t } = useT();
  usePageTitle(t('skudo.partnerPage.loginTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { code: params.get('code') ?? '' }, validate: schemaValidator(SkudoPartnerLogin, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('skudoPartnerLogin', { body: values });
      await navigate('/skudo/offers', { replace: true });
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['code']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <form onSubmit={submit} noValidate aria-labelledby="skudo-login-title">
      <Stack gap="md">
        <div>
          <Title order={1} fz={22} id="skudo-login-title">{t('skudo.partnerPage.loginTitle')}</Title>
          <Text c="dimmed" size="sm" mt={4}>{t('skudo.partnerPage.loginSubtitle')}</Text>
        </div>
        {params.get('ended') === '1' && failure === null && (
          <Alert color="yellow" variant="light" role="status">{t('skudo.partnerPage.sessionEnded')}</Alert>
        )}
        <FormError error={failure} />
        <TextInput
          label={t('skudo.partnerPage.code')}
          placeholder={t('skudo.partnerPage.codePlaceholder')}
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          required
          autoFocus
          size="md"
          classNames={{ input: 'gd-mono' }}
          data-testid="skudo-login-code"
          {...form.getInputProps('code')}
        />
        <Button type="submit" fullWidth loading={form.submitting} size="md" data-testid="skudo-login-submit">
          {t('skudo.partnerPage.submit')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          <Anchor component={Link} to="/login" fw={500}>{t('skudo.partnerPage.teamSignIn')}</Anchor>
        </Text>
      </Stack>
    </form>
  );
}
