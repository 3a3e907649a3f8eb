/**
 * The people behind a step: who reached it (converted) or dropped just before it, how many, the
 * first 100 by when they entered (each a link to their profile on /behavior/people), and "Save as
 * audience" (a fixed audience, named by default after the step, that the audience list shows as
 * coming from a funnel). Loading waits 100 ms before it shows (SPEC §9).
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, Drawer, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconUsersPlus } from '@tabler/icons-react';
import { truncateLabel } from '@gd/shared/language';
import type { FunnelPerson, FunnelQueryInput } from '@gd/shared/schemas/funnels';
import { api } from '../../api/client.ts';
import { formatCount } from '../../entities/funnel/format.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { formatDateTime } from '../../ui/format.ts';
import { GatedButton } from '../../ui/Gated.tsx';
import { NameDialog } from '../../ui/NameDialog.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { ErrorBlock } from '../../ui/States.tsx';
import { useDelayedFlag } from '../../ui/useDelayedFlag.ts';
import type { DrillTarget } from './FunnelResult.tsx';

type Loaded = { total: number; people: FunnelPerson[] };

export function DrillDown({ appId, query, target, labels, onClose }: {
  appId: string;
  query: FunnelQueryInput;
  target: DrillTarget;
  labels: readonly string[];
  onClose: () => void;
}) {
  const { t, lang } = useT();
  const can = usePermissions('app');
  // The answer with the request it answers, so a new request shows loading without resetting state in the effect.
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded } | null>(null);
  const [failed, setFailed] = useState<{ key: string; error: unknown } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [naming, setNaming] = useState(false);
  const body = { query, step: target.step, outcome: target.outcome, ...(target.breakdownValue !== undefined ? { breakdownValue: target.breakdownValue } : {}) };
  const bodyJson = JSON.stringify(body);
  const key = `${appId} ${bodyJson} ${attempt}`;
  useEffect(() => {
    let live = true;
    api.call('funnelPeople', { params: { appId }, body: JSON.parse(bodyJson) as typeof body })
      .then((value) => {
        if (live) setLoaded({ key, value });
      })
      .catch((error: unknown) => {
        if (live) setFailed({ key, error });
      });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` names the request (app, body as JSON, retry)
  }, [key]);
  const data = loaded?.key === key ? loaded.value : null;
  const error = failed?.key === key ? failed.error : null;
  const showLoading = useDelayedFlag(data === null && error === null);
  const event = labels[target.step - 1] ?? '';
  const title = target.outcome === 'converted'
    ? t('funnels.drillConverted', { n: target.step, event: truncateLabel(event) })
    : t('funnels.drillDropped', { n: target.step, event: truncateLabel(event) });
  const defaultName = truncateLabel(t(target.outcome === 'converted' ? 'funnels.audienceNameConverted' : 'funnels.audienceNameDropped', {
    n: target.step, first: labels[0] ?? '', last: labels[labels.length - 1] ?? '',
  }), 120);
  const save = async (name: string) => {
    const { audience } = await api.call('saveFunnelAudience', { params: { appId }, body: { name, ...body } });
    setNaming(false);
    notifySuccess(t('funnels.audienceSaved', { name: audience.name, count: formatCount(audience.personCount ?? 0, lang) }));
  };
  const personName = (p: FunnelPerson) => p.email ?? p.customerId ?? t('funnels.anonymous', { id: p.id });

  return (
    <Drawer opened onClose={onClose} position="right" size="xl" title={<Text fw={600}>{title}</Text>}>
      <Stack gap="md" data-testid="funnel-drill">
        {error !== null ? (
          <ErrorBlock error={error} onRetry={() => setAttempt((a) => a + 1)} />
        ) : data === null ? (
          showLoading ? <Loader size="sm" /> : null
        ) : (
          <>
            <Group justify="space-between">
              <Stack gap={0}>
                <Text fw={700} fz="lg" data-testid="funnel-drill-count">
                  {t('funnels.drillCount', { count: formatCount(data.total, lang) })}
                </Text>
                {data.total > data.people.length && (
                  <Text size="xs" c="dimmed">
                    {t('funnels.drillFirst', { shown: data.people.length })}
                  </Text>
                )}
              </Stack>
              <Group gap="xs">
                <Button component={Link} to="/behavior/audiences" variant="subtle" size="xs">
                  {t('funnels.openAudiences')}
                </Button>
                <GatedButton
                  allowed={can('ui:audience.create')}
                  reason={t('permissions.denied')}
                  size="xs"
                  leftSection={<IconUsersPlus size={14} />}
                  disabled={data.total === 0}
                  onClick={() => setNaming(true)}
                >
                  {t('funnels.saveAudience')}
                </GatedButton>
              </Group>
            </Group>
            {data.people.length === 0 ? (
              <Text c="dimmed">{t('funnels.nobody')}</Text>
            ) : (
              <Table aria-label={title} striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('funnels.person')}</Table.Th>
                    <Table.Th>{t('funnels.startedAt')}</Table.Th>
                    <Table.Th ta="right">{t('funnels.reached')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.people.map((p) => (
                    <Table.Tr key={p.id}>
                      <Table.Td maw={320}>
                        <Anchor component={Link} to={`/behavior/people?person=${p.id}`} size="sm" lineClamp={1} style={{ wordBreak: 'break-all' }}>
                          {personName(p)}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatDateTime(p.startedAt, lang)}</Table.Td>
                      <Table.Td ta="right">{p.reached}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </>
        )}
      </Stack>
      {naming && <NameDialog title={t('funnels.saveAudience')} submitLabel={t('funnels.saveAudience')} initialName={defaultName} onSubmit={save} onClose={() => setNaming(false)} />}
    </Drawer>
  );
}
