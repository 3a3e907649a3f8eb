/** /user/welcome (after registration): a greeting and the next steps the user may take. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button, Card, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCreditCard, IconDeviceMobileCode, IconRocket, IconUserCircle, IconUsersPlus } from '@tabler/icons-react';
import { routeKey } from '@gd/shared/routes';
import type { TKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useMeta } from '../../session/store.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';

interface NextStep {
  path: string;
  icon: ReactNode;
  title: TKey;
  body: TKey;
  scope: 'app' | 'account';
}

const STEPS: NextStep[] = [
  { path: '/user/setup', icon: <IconRocket size={20} />, title: 'welcome.setupTitle', body: 'welcome.setupBody', scope: 'account' },
  { path: '/user/account/test-devices', icon: <IconDeviceMobileCode size={20} />, title: 'welcome.devicesTitle', body: 'welcome.devicesBody', scope: 'app' },
  { path: '/user/account/users', icon: <IconUsersPlus size={20} />, title: 'welcome.teamTitle', body: 'welcome.teamBody', scope: 'account' },
  { path: '/user/plan', icon: <IconCreditCard size={20} />, title: 'welcome.planTitle', body: 'welcome.planBody', scope: 'account' },
  { path: '/user/profile', icon: <IconUserCircle size={20} />, title: 'welcome.profileTitle', body: 'welcome.profileBody', scope: 'account' },
];

export default function WelcomePage() {
  const { t } = useT();
  const { user, account } = useMeta();
  const canApp = usePermissions('app');
  const canAccount = usePermissions('account');
  const steps = STEPS.filter((s) => (s.scope === 'app' ? canApp : canAccount)(routeKey(s.path)));
  const firstName = user.name.split(/\s+/)[0] ?? user.name;

  return (
    <>
      <PageHeader title={t('welcome.title', { name: firstName })} description={t('welcome.description', { account: account.name })} />
      <Title order={2} fz="md" mb="sm" c="dimmed" fw={600}>
        {t('welcome.nextSteps')}
      </Title>
      <SimpleGrid cols={{ base: 2, xl: 3 }} spacing="lg">
        {steps.map((step) => (
          <Card key={step.path}>
            <Stack gap="sm" h="100%">
              <ThemeIcon size={40} radius="md" variant="light">
                {step.icon}
              </ThemeIcon>
              <Title order={3} fz="md">
                {t(step.title)}
              </Title>
              <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
                {t(step.body)}
              </Text>
              <Button component={Link} to={step.path} variant="light" rightSection={<IconArrowRight size={16} />} w="fit-content">
                {t('welcome.go')}
              </Button>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    </>
  );
}
