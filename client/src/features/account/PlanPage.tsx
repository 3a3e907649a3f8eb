/** /user/plan: the six plans as cards, the current one marked; changing needs api:account.plan. */
import { useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheckFilled } from '@tabler/icons-react';
import { Plan, apiVersionForPlan } from '@gd/shared/enums';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { notifySuccess } from '../../ui/notify.ts';

export default function PlanPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const account = useApiQuery('getAccount');
  const reloadMeta = useSession((s) => s.reload);
  const [target, setTarget] = useState<Plan | null>(null);

  return (
    <>
      <PageHeader title={t('nav.plan')} description={t('plans.description')} />
      <DataState query={account} rows={3}>
        {({ account: { plan: current, apiVersion } }) => (
          <>
            <SimpleGrid cols={{ base: 2, lg: 3 }} spacing="lg">
              {Plan.options.map((plan, index) => {
                const isCurrent = plan === current;
                const version = apiVersionForPlan(plan);
                return (
                  <Card
                    key={plan}
                    data-testid={`plan-card-${plan}`}
                    data-current={isCurrent}
                    aria-current={isCurrent ? 'true' : undefined}
                    style={isCurrent ? { borderColor: 'var(--mantine-color-brand-5)', boxShadow: '0 0 0 1px var(--mantine-color-brand-5)' } : undefined}
                  >
                    <Stack gap="sm" h="100%">
                      <Group justify="space-between" align="flex-start">
                        <div>
                          <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                            {t('plans.tier', { n: index + 1, total: Plan.options.length })}
                          </Text>
                          <Title order={2} fz="xl">
                            {t(`plan.${plan}`)}
                          </Title>
                        </div>
                        {isCurrent && (
                          <Badge tt="none" leftSection={<IconCircleCheckFilled size={12} />} variant="filled">
                            {t('plans.current')}
                          </Badge>
                        )}
                      </Group>
                      <Text size="sm" c="dimmed" style={{ flexGrow: 1 }}>
                        {t(`plans.blurb.${plan}`)}
                      </Text>
                      <Badge tt="none" variant="outline" color="gray" w="fit-content">
                        {t('plans.apiVersion', { version })}
                      </Badge>
                      {isCurrent ? (
                        <Button variant="default" fullWidth disabled>
                          {t('plans.yours')}
                        </Button>
                      ) : (
                        <GatedButton allowed={can('api:account.plan')} variant="light" fullWidth onClick={() => setTarget(plan)}>
                          {t('plans.switchTo', { plan: t(`plan.${plan}`) })}
                        </GatedButton>
                      )}
                    </Stack>
                  </Card>
                );
              })}
            </SimpleGrid>
            <ConfirmDialog
              opened={target !== null}
              title={t('plans.confirmTitle')}
              message={
                target
                  ? apiVersionForPlan(target) === apiVersion
                    ? t('plans.confirmBody', { plan: t(`plan.${target}`) })
                    : t('plans.confirmBodyVersion', { plan: t(`plan.${target}`), version: apiVersionForPlan(target) })
                  : ''
              }
              confirmLabel={t('plans.confirm')}
              onClose={() => setTarget(null)}
              onConfirm={async () => {
                if (!target) return;
                await api.call('updatePlan', { body: { plan: target } });
                notifySuccess(t('plans.changed', { plan: t(`plan.${target}`) }));
                account.refetch();
                await reloadMeta();
              }}
            />
          </>
        )}
      </DataState>
    </>
  );
}
