/**
 * The live what-if of a message draft (issue 12): how many people its target holds, how many each
 * channel reaches (the draft's own channel highlighted, with the people it can reach), and when
 * they receive it per time zone. Asked again ~400 ms after the target, type or schedule change
 * (useWhatIf); the previous answer stays dimmed while a newer one is on its way. Times are shown on
 * one clock, the app's time zone, so the rows compare.
 */
import { Alert, Badge, Button, Group, Loader, Progress, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconDeviceMobile, IconMail, IconRefresh, IconTarget, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { MessageDraft } from '@gd/shared/message/draft';
import { WHAT_IF_RECENT_SESSION_DAYS, type WhatIfChannel } from '@gd/shared/schemas/messageWhatIf';
import { LivePanel } from '../../../ui/LivePanel.tsx';
import { useT } from '../../../i18n/useT.ts';
import { errorText } from '../../../ui/errorText.ts';
import { formatAt, formatNumber } from '../../../entities/person/format.ts';
import { useWhatIf, type WhatIfAnswer } from './useWhatIf.ts';

const CHANNEL_ICONS: Record<WhatIfChannel, ReactNode> = {
  push: <IconBell size={16} aria-hidden />,
  email: <IconMail size={16} aria-hidden />,
  inApp: <IconDeviceMobile size={16} aria-hidden />,
};
const CHANNELS: readonly WhatIfChannel[] = ['push', 'email', 'inApp'];

const share = (part: number, whole: number) => (whole > 0 ? (part / whole) * 100 : 0);

function SectionTitle({ children }: { children: ReactNode }) {
  return (
    <Text size="xs" fw={600} c="dimmed">
      {children}
    </Text>
  );
}

function Reach({ answer }: { answer: WhatIfAnswer }) {
  const { t, lang } = useT();
  const own = new Set(answer.channels);
  return (
    <Stack gap={6}>
      <SectionTitle>{t('messageWhatIf.reachable')}</SectionTitle>
      {CHANNELS.map((c) => {
        const highlighted = own.has(c);
        const count = answer.reachable[c];
        return (
          <Tooltip key={c} label={t(`messageWhatIf.channelHint.${c}`, { days: WHAT_IF_RECENT_SESSION_DAYS })} openDelay={300} position="left">
            <Stack gap={2} data-testid={`whatif-channel-${c}`} data-highlighted={highlighted} data-count={count}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Group gap={6} wrap="nowrap" c={highlighted ? 'blue.7' : undefined}>
                  {CHANNEL_ICONS[c]}
                  <Text size="sm" fw={highlighted ? 600 : 400}>
                    {t(`messageWhatIf.channel.${c}`)}
                  </Text>
                  {highlighted && (
                    <Badge size="xs" variant="light" color="blue">
                      {t('messageWhatIf.thisMessage')}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" fw={highlighted ? 600 : 400} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatNumber(count, lang)}
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · {Math.round(share(count, answer.total))}%
                  </Text>
                </Text>
              </Group>
              <Progress value={share(count, answer.total)} size={highlighted ? 'sm' : 'xs'} color={highlighted ? 'blue' : 'gray.5'} aria-hidden />
            </Stack>
          </Tooltip>
        );
      })}
    </Stack>
  );
}

function When({ answer }: { answer: WhatIfAnswer }) {
  const { t, lang } = useT();
  const zone = answer.appTimeZone;
  const at = (iso: string) => formatAt(iso, zone, lang, 'dateTime');
  const times = [...answer.timeZones.map((z) => z.sendsAt), answer.otherTimeZones.firstSendsAt, answer.otherTimeZones.lastSendsAt]
    .filter((x): x is string => x !== null).sort();
  const first = times[0];
  const last = times.at(-1);
  const now = answer.timeZones.every((z) => z.sendsAt === answer.computedAt);
  const single = first !== undefined && first === last;
  const summary = now ? t('messageWhatIf.whenNow') : single ? t('messageWhatIf.whenOnce', { time: at(first) }) : t('messageWhatIf.whenLocal', { first: at(first ?? ''), last: at(last ?? '') });
  const largest = Math.max(1, ...answer.timeZones.map((z) => z.people), answer.otherTimeZones.people);
  return (
    <Stack gap={6}>
      <SectionTitle>{t('messageWhatIf.when')}</SectionTitle>
      <Text size="sm" data-testid="whatif-when">
        {summary}
      </Text>
      <Table verticalSpacing={4} horizontalSpacing={6} fz="xs" data-testid="whatif-zones" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="42%">{t('messageWhatIf.zone')}</Table.Th>
            <Table.Th>{t('messageWhatIf.peopleColumn')}</Table.Th>
            {!now && <Table.Th w="34%">{t('messageWhatIf.sendsAt')}</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {answer.timeZones.map((z) => {
            const passed = z.sendsAt < answer.computedAt;
            return (
              <Table.Tr key={z.timeZone} data-testid="whatif-zone" data-zone={z.timeZone} data-people={z.people} data-sends-at={z.sendsAt}>
                <Table.Td>
                  <Text size="xs" truncate="end" title={z.timeZone}>
                    {z.timeZone.replaceAll('_', ' ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Progress value={share(z.people, largest)} size="sm" color="blue.4" style={{ flex: 1 }} aria-hidden />
                    <Text size="xs" w={52} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                      {formatNumber(z.people, lang)}
                    </Text>
                  </Group>
                </Table.Td>
                {!now && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Text size="xs" c={passed ? 'dimmed' : undefined} truncate="end">
                        {at(z.sendsAt)}
                      </Text>
                      {passed && (
                        <Tooltip label={t('messageWhatIf.passedHint')}>
                          <Badge size="xs" variant="light" color="orange">
                            {t('messageWhatIf.passed')}
                          </Badge>
                        </Tooltip>
                      )}
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
          {answer.otherTimeZones.people > 0 && (
            <Table.Tr data-testid="whatif-zone-others">
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {t('messageWhatIf.others', { count: answer.otherTimeZones.zones })}
                </Text>
              </Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Progress value={share(answer.otherTimeZones.people, largest)} size="sm" color="gray.5" style={{ flex: 1 }} aria-hidden />
                  <Text size="xs" w={52} ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatNumber(answer.otherTimeZones.people, lang)}
                  </Text>
                </Group>
              </Table.Td>
              {!now && (
                <Table.Td>
                  <Text size="xs" c="dimmed" truncate="end">
                    {answer.otherTimeZones.firstSendsAt && answer.otherTimeZones.lastSendsAt
                      ? answer.otherTimeZones.firstSendsAt === answer.otherTimeZones.lastSendsAt
                        ? at(answer.otherTimeZones.firstSendsAt)
                        : `${at(answer.otherTimeZones.firstSendsAt)} – ${at(answer.otherTimeZones.lastSendsAt)}`
                      : '—'}
                  </Text>
                </Table.Td>
              )}
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {answer.unknownTimeZone > 0 && (
        <Text size="xs" c="dimmed">
          {t('messageWhatIf.unknownZone', { count: answer.unknownTimeZone })}
        </Text>
      )}
      {!now && (
        <Text size="xs" c="dimmed">
          {t('messageWhatIf.timesIn', { zone })}
        </Text>
      )}
    </Stack>
  );
}

export function WhatIfPanel({ appId, draft }: { appId: string; draft: MessageDraft }) {
  const { t, lang } = useT();
  const whatIf = useWhatIf(appId, draft);
  const { result, pending, current, error, asked } = whatIf;
  const updating = asked && (pending || (!current && error === null && result !== null));
  const answer = asked ? result : null;
  return (
    <LivePanel title={t('messageWhatIf.title')} updating={updating} updatingLabel={t('messageWhatIf.updating')} data-testid="whatif" data-total={answer && current && !pending ? answer.total : ''}>
      {!asked && (
        <Stack gap={6} align="center" py="md" data-testid="whatif-empty">
          <IconTarget size={28} color="var(--mantine-color-gray-5)" aria-hidden />
          <Text size="sm" fw={600}>
            {t('messageWhatIf.empty')}
          </Text>
          <Text size="xs" c="dimmed" ta="center" maw={300}>
            {t('messageWhatIf.emptyHint')}
          </Text>
        </Stack>
      )}

      {asked && answer === null && error === null && (
        <Group gap="xs" py="md" justify="center" data-testid="whatif-loading">
          <Loader size="sm" />
        </Group>
      )}

      {asked && error !== null && error !== undefined && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} title={t('messageWhatIf.failed')} p="xs" data-testid="whatif-error">
          <Stack gap={6} align="flex-start">
            <Text size="xs">{errorText(t, error)}</Text>
            <Button size="compact-xs" variant="default" leftSection={<IconRefresh size={12} />} onClick={whatIf.retry}>
              {t('messageWhatIf.retry')}
            </Button>
          </Stack>
        </Alert>
      )}

      {answer && (
        <Stack gap="md" style={{ opacity: updating ? 0.5 : 1, transition: 'opacity 120ms' }}>
          <Stack gap={2}>
            <Group gap="sm" wrap="nowrap" align="center">
              <IconUsers size={28} color="var(--mantine-color-blue-6)" aria-hidden />
              <Text fz={32} fw={700} lh={1.1} data-testid="whatif-total" aria-live="polite">
                {formatNumber(answer.total, lang)}
              </Text>
              <Text size="sm" c="dimmed" mt={8}>
                {t('messageWhatIf.unit', { count: answer.total })}
              </Text>
            </Group>
            {answer.total > 0 && (
              <Text size="sm" fw={500} c="blue.8" data-testid="whatif-channel" data-count={answer.channel}>
                {t(answer.channels.length > 1 ? 'messageWhatIf.receivesAb' : 'messageWhatIf.receives', { count: answer.channel })}
              </Text>
            )}
          </Stack>
          {answer.total === 0 ? (
            <Text size="sm" c="dimmed">
              {t('messageWhatIf.nobody')}
            </Text>
          ) : (
            <>
              <Reach answer={answer} />
              <When answer={answer} />
            </>
          )}
          <Text size="xs" c="dimmed" ta="right">
            {t('messageWhatIf.computedIn', { ms: formatNumber(Math.round(answer.computedInMs), lang) })}
          </Text>
        </Stack>
      )}
    </LivePanel>
  );
}
