/** A landing's visits per day over the last 30 days (bars: from links, and the others on top). */
import { Group, Paper, Stack, Text } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';

const AXIS = '#868e96';
const GRID = '#e9ecef';
const LINKS = '#7048e8';
const DIRECT = '#b197fc';

export function LandingVisits({ appId, landingId }: { appId: string; landingId: string }) {
  const { t, lang } = useT();
  const visits = useApiQuery('landingVisits', { params: { appId, landingId }, query: { days: 30 }, scope: 'app' });
  const dayLabel = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return (
    <Paper withBorder p="md" radius="md" data-testid="landing-visits-panel">
      <Stack gap="xs">
        <Text fw={600} size="sm">{t('landings.visitsTitle')}</Text>
        <DataState query={visits} rows={3}>
          {({ days }) => {
            const total = days.reduce((sum, d) => sum + d.visits, 0);
            const fromLinks = days.reduce((sum, d) => sum + d.fromLinks, 0);
            if (total === 0) return <Text size="sm" c="dimmed">{t('landings.visitsEmpty')}</Text>;
            const data = days.map((d) => ({ day: dayLabel(d.day), links: d.fromLinks, direct: d.visits - d.fromLinks }));
            return (
              <>
                <Group gap="lg">
                  <Text size="sm" fw={600} className="gd-num" data-testid="landing-visits-total">{t('landings.visitsTotal', { count: total, value: total.toLocaleString(lang) })}</Text>
                  <Text size="sm" c="dimmed" className="gd-num">{t('landings.visitsFromLinks', { count: fromLinks.toLocaleString(lang) })}</Text>
                </Group>
                <div role="img" aria-label={t('landings.visitsTitle')}>
                  <ResponsiveContainer width="100%" height={150}>
                    <BarChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -20 }}>
                      <CartesianGrid stroke={GRID} vertical={false} />
                      <XAxis dataKey="day" stroke={AXIS} fontSize={11} tickLine={false} interval="preserveStartEnd" minTickGap={24} />
                      <YAxis stroke={AXIS} fontSize={11} tickLine={false} axisLine={false} allowDecimals={false} />
                      <Tooltip cursor={{ fill: 'rgba(0, 0, 0, 0.03)' }} />
                      <Bar dataKey="links" name={t('landings.visitsLinksShort')} stackId="v" fill={LINKS} isAnimationActive={false} />
                      <Bar dataKey="direct" name={t('landings.visitsDirect')} stackId="v" fill={DIRECT} radius={[2, 2, 0, 0]} isAnimationActive={false} />
                    </BarChart>
                  </ResponsiveContainer>
                </div>
                <Text size="xs" c="dimmed">{t('landings.visitsHint')}</Text>
              </>
            );
          }}
        </DataState>
      </Stack>
    </Paper>
  );
}
