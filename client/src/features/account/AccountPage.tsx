/** /user/account: the account's name, plan, support level and API version; editable under api:account.edit. */
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Card, Grid, Group, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowRight } from '@tabler/icons-react';
import { SupportLevel } from '@gd/shared/enums';
import { AccountUpdate, type Account } from '@gd/shared/schemas/account';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useMeta, useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { ResetSave } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { formatDate } from '../../ui/format.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';

export default function AccountPage() {
  const { t } = useT();
  const account = useApiQuery('getAccount');
  return (
    <>
      <PageHeader title={t('nav.account')} description={t('account.description')} />
      <DataState query={account} rows={3}>
        {({ account: value }) => <AccountDetails key={`${value.id}:${value.name}:${value.supportLevel}:${value.plan}`} account={value} onSaved={account.refetch} />}
      </DataState>
    </>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" py={10} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <div>{children}</div>
    </Group>
  );
}

function AccountDetails({ account, onSaved }: { account: Account; onSaved: () => void }) {
  const { t, lang } = useT();
  const can = usePermissions('account');
  const meta = useMeta();
  const reloadMeta = useSession((s) => s.reload);
  const editable = can('api:account.edit');
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<{ name: string; supportLevel: string }>({
    initialValues: { name: account.name, supportLevel: account.supportLevel },
    validate: schemaValidator(AccountUpdate, t),
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateAccount', { body: { name: values.name, supportLevel: SupportLevel.parse(values.supportLevel) } });
      notifySuccess(t('common.saved'));
      onSaved();
      await reloadMeta();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'supportLevel']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 7 }}>
        <Card component="form" onSubmit={submit} noValidate aria-labelledby="account-details-title">
          <Stack gap="md">
            <div>
              <Title order={2} fz="lg" id="account-details-title">
                {t('account.details')}
              </Title>
              {!editable && (
                <Text size="sm" c="dimmed" mt={4}>
                  {t('account.readOnly')}
                </Text>
              )}
            </div>
            <FormError error={failure} />
            <TextInput label={t('fields.accountName')} required disabled={!editable} {...form.getInputProps('name')} />
            <Select
              label={t('fields.supportLevel')}
              disabled={!editable}
              allowDeselect={false}
              data={SupportLevel.options.map((s) => ({ value: s, label: t(`supportLevel.${s}`) }))}
              {...form.getInputProps('supportLevel')}
            />
            <Group justify="flex-end">
              <ResetSave form={form} allowed={editable} />
            </Group>
          </Stack>
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 5 }}>
        <Card aria-labelledby="account-plan-title">
          <Group justify="space-between" mb="xs">
            <Title order={2} fz="lg" id="account-plan-title">
              {t('account.planTitle')}
            </Title>
            <Badge tt="none" size="lg" variant="light" data-testid="account-plan">
              {t(`plan.${account.plan}`)}
            </Badge>
          </Group>
          <Row label={t('fields.apiVersion')}>
            <Badge tt="none" variant="outline" color="gray">
              {t('plans.apiVersion', { version: account.apiVersion })}
            </Badge>
          </Row>
          <Row label={t('fields.supportLevel')}>
            <Text size="sm">{t(`supportLevel.${account.supportLevel}`)}</Text>
          </Row>
          <Row label={t('nav.apps')}>
            <Text size="sm">{meta.apps.length}</Text>
          </Row>
          <Row label={t('fields.created')}>
            <Text size="sm">{formatDate(account.createdAt, lang)}</Text>
          </Row>
          <Button component={Link} to="/user/plan" variant="light" mt="md" fullWidth rightSection={<IconArrowRight size={16} />}>
            {t('account.comparePlans')}
          </Button>
        </Card>
      </Grid.Col>
    </Grid>
  );
}
