/**
 * The person's devices, one card each: every column of the device (push token masked by the API),
 * as label/value pairs, which stay readable in the profile's column where a wide table would not.
 */
import { Badge, Card, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDeviceMobile } from '@tabler/icons-react';
import type { PersonDevice } from '@gd/shared/schemas/people';
import { useT } from '../../i18n/useT.ts';
import { FactList } from './FactList.tsx';
import { formatAt, fromNow } from '../../entities/person/format.ts';

function PushBadge({ enabled }: { enabled: boolean | null }) {
  const { t } = useT();
  const [label, color] = enabled === true ? [t('people.devices.pushOn'), 'teal'] : enabled === false ? [t('people.devices.pushOff'), 'gray'] : [t('people.devices.pushUnknown'), 'yellow'];
  return (
    <Badge size="sm" variant="light" color={color} tt="none">
      {t('people.devices.push')}: {label}
    </Badge>
  );
}

export function DevicesTable({ devices, zone }: { devices: PersonDevice[]; zone: string }) {
  const { t, lang } = useT();
  if (devices.length === 0) {
    return (
      <Paper withBorder p="lg">
        <Text size="sm" c="dimmed">
          {t('people.devices.empty')}
        </Text>
      </Paper>
    );
  }
  const at = (iso: string) => formatAt(iso, zone, lang, 'dateTime');
  return (
    <Stack gap="md" aria-label={t('people.devices.label')} role="list">
      {devices.map((d) => (
        <Card key={d.id} role="listitem" data-testid="person-device">
          <Group justify="space-between" mb="md" wrap="nowrap" gap="sm">
            <Group gap="sm" wrap="nowrap" miw={0}>
              <IconDeviceMobile size={20} aria-hidden style={{ flexShrink: 0 }} />
              <Text fw={600} truncate="end">
                {[d.model, [d.os, d.osVersion].filter(Boolean).join(' ')].filter(Boolean).join(' · ') || t('people.field.deviceId')}
              </Text>
              <PushBadge enabled={d.pushEnabled} />
            </Group>
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {t('people.search.lastSeen', { when: fromNow(d.lastSeenAt, lang) })}
            </Text>
          </Group>
          <SimpleGrid type="container" cols={{ base: 1, '640px': 2 }} spacing="xl" verticalSpacing="xs">
            <FactList
              facts={[
                { label: t('people.devices.sdkId'), value: d.deviceKey, mono: true },
                { label: t('people.search.match.idfa'), value: d.idfa, mono: true },
                { label: t('people.search.match.idfv'), value: d.idfv, mono: true },
                { label: t('people.search.match.gaid'), value: d.gaid, mono: true },
                { label: t('people.search.match.oaid'), value: d.oaid, mono: true },
              ]}
            />
            <FactList
              facts={[
                { label: t('people.devices.pushToken'), value: d.pushToken, mono: true },
                { label: t('people.field.appVersion'), value: d.appVersion },
                { label: t('people.field.sdkVersion'), value: d.sdkVersion },
                { label: t('people.devices.firstSeen'), value: at(d.firstSeenAt) },
                { label: t('people.devices.lastSeen'), value: at(d.lastSeenAt) },
              ]}
            />
          </SimpleGrid>
        </Card>
      ))}
    </Stack>
  );
}
