import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Group, Radio, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { JobDepartment, Plan, apiVersionForPlan } from '@gd/shared/enums';
import { RegisterRequest } from '@gd/shared/schemas/auth';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { PasswordField } from '../../ui/PasswordField.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { PasswordChecklist } from '../../ui/PasswordChecklist.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

interface Values {
  name: string;
  email: string;
  password: string;
  accountName: string;
  plan: string;
  jobDepartment: string | null;
}
const FIELDS = ['name', 'email', 'password', 'accountName', 'plan', 'jobDepartment'];
/** The client requires the plan (the API answers 10023 without one). */
const Schema = RegisterRequest.extend({ plan: Plan });

export default function RegisterPage() {
  const { t, lang } = useT();
  usePageTitle(t('auth.register.title'));
  const navigate = useNavigate();
  const [failure, setFailure] = useState<unknown>(null);
  const toBody = (v: Values) => ({ ...v, plan: v.plan || undefined, jobDepartment: v.jobDepartment ?? undefined, language: lang });
  const form = useForm<Values>({
    initialValues: { name: '', email: '', password: '', accountName: '', plan: '', jobDepartment: null },
    validate: schemaValidator<Values>(Schema, t, { password: 'validation.password', plan: 'auth.register.planRequired' }, toBody),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const body = Schema.parse(toBody(values));
      await api.call('register', { body });
      await useSession.getState().load();
      await navigate('/user/welcome', { replace: true });
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="register-title">
      <Stack gap="md">
        <div>
          <Title order={1} fz={22} id="register-title">
            {t('auth.register.title')}
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            {t('auth.register.subtitle')}
          </Text>
        </div>
        <FormError error={failure} />
        <SimpleGrid cols={2} spacing="md">
          <TextInput label={t('fields.name')} autoComplete="name" required {...form.getInputProps('name')} />
          <TextInput label={t('fields.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
        </SimpleGrid>
        <div>
          <PasswordField
            label={t('fields.password')}
            autoComplete="new-password"
            required
            aria-describedby="register-password-rules"
            {...form.getInputProps('password')}
          />
          <Stack mt="xs">
            <PasswordChecklist password={form.values.password} id="register-password-rules" />
          </Stack>
        </div>
        <SimpleGrid cols={2} spacing="md">
          <TextInput label={t('fields.accountName')} description={t('auth.register.accountHint')} autoComplete="organization" required {...form.getInputProps('accountName')} />
          <Select
            label={t('fields.jobDepartment')}
            description={t('common.optional')}
            clearable
            data={JobDepartment.options.map((d) => ({ value: d, label: t(`jobDepartment.${d}`) }))}
            {...form.getInputProps('jobDepartment')}
          />
        </SimpleGrid>
        <Radio.Group label={t('fields.plan')} required {...form.getInputProps('plan')}>
          <SimpleGrid cols={3} spacing="xs" mt={6}>
            {Plan.options.map((plan) => (
              <Radio.Card key={plan} value={plan} p="sm" radius="md" data-testid={`plan-${plan}`}>
                <Stack gap={2}>
                  <Group gap={8} wrap="nowrap">
                    <Radio.Indicator size="xs" />
                    <Text fw={600} size="sm">
                      {t(`plan.${plan}`)}
                    </Text>
                  </Group>
                  <Text size="xs" c="dimmed">
                    {t('plans.apiVersion', { version: apiVersionForPlan(plan) })}
                  </Text>
                </Stack>
              </Radio.Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
        <Button type="submit" fullWidth loading={form.submitting} size="md">
          {t('auth.register.submit')}
        </Button>
        <Text size="sm" ta="center" c="dimmed">
          {t('auth.register.haveAccount')}{' '}
          <Anchor component={Link} to="/login" fw={500}>
            {t('auth.login.submit')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
