/** The profile tab: every user field in four groups, the person's tags and custom attributes. */
import { Badge, Card, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { PersonTag } from '@gd/shared/schemas/people';
import type { Language } from '@gd/shared/language';
import type { peopleEn } from '@gd/shared/i18n/people/en';
import type { TFunction } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { FactList, type Fact } from './FactList.tsx';
import { formatAt, formatDay, formatMoney, formatNumber, propertyText } from '../../entities/person/format.ts';
import type { PersonDetailAnswer } from './types.ts';

type Person = PersonDetailAnswer['person'];

function groups(p: Person, zone: string, lang: Language, t: TFunction): { title: string; facts: Fact[] }[] {
  const at = (iso: string | null) => formatAt(iso, zone, lang, 'dateTime');
  const f = (key: Parameters<typeof fieldLabel>[0], value: Fact['value'], mono = false): Fact => ({ label: fieldLabel(key, t), value, mono });
  const yesNo = (b: boolean) => (b ? t('people.profile.yes') : t('people.profile.no'));
  const coordinates = p.latitude !== null && p.longitude !== null ? `${p.latitude.toFixed(4)}, ${p.longitude.toFixed(4)}` : null;
  return [
    {
      title: t('people.profile.identity'),
      facts: [
        f('id', p.id, true), f('customerId', p.customerId, true), f('email', p.email), f('deviceId', p.deviceId, true),
        f('referrerId', p.referrerId, true), f('birthday', formatDay(p.birthday, lang)), f('inactive', yesNo(p.inactive)),
      ],
    },
    {
      title: t('people.profile.lifecycle'),
      facts: [
        f('installAt', at(p.installAt)), f('uninstallAt', at(p.uninstallAt)), f('registeredAt', at(p.registeredAt)),
        f('firstLoginAt', at(p.firstLoginAt)), f('lastLoginAt', at(p.lastLoginAt)), f('lastSessionAt', at(p.lastSessionAt)),
        f('firstPurchaseAt', at(p.firstPurchaseAt)), f('lastPurchaseAt', at(p.lastPurchaseAt)),
        f('conversions', formatNumber(p.conversions, lang)), f('revenue', formatMoney(p.revenue, p.revenueCurrency, lang)),
      ],
    },
    {
      title: t('people.profile.deviceAndPlace'),
      facts: [
        f('os', p.os), f('osVersion', p.osVersion), f('appVersion', p.appVersion), f('sdkVersion', p.sdkVersion),
        f('carrier', p.carrier), f('ip', p.ip, true), f('country', p.country), f('state', p.state), f('city', p.city),
        f('coordinates', coordinates, true),
      ],
    },
    {
      title: t('people.profile.acquisition'),
      facts: [f('fromSource', p.fromSource), f('fromCampaign', p.fromCampaign), f('createdAt', at(p.createdAt))],
    },
  ];
}

type FieldKey = keyof typeof peopleEn.people.field;
const fieldLabel = (key: FieldKey, t: TFunction) => t(`people.field.${key}`);

function tagValue(tag: PersonTag, lang: Language): string {
  if (tag.value === null) return '';
  if (tag.valueType === 'date' && typeof tag.value === 'string') return formatDay(tag.value, lang);
  if (typeof tag.value === 'number') return formatNumber(tag.value, lang);
  return tag.value;
}

export function AttributesPanel({ detail, zone }: { detail: PersonDetailAnswer; zone: string }) {
  const { t, lang } = useT();
  const custom = Object.entries(detail.person.attributes).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Stack gap="md">
      <SimpleGrid type="container" cols={{ base: 1, '720px': 2 }} spacing="md" verticalSpacing="md">
        {groups(detail.person, zone, lang, t).map((group) => (
          <Card key={group.title}>
            <Title order={3} fz="md" mb="sm">
              {group.title}
            </Title>
            <FactList facts={group.facts} />
          </Card>
        ))}
      </SimpleGrid>
      <Card>
        <Title order={3} fz="md" mb="sm">
          {t('people.profile.tags')}
        </Title>
        {detail.tags.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.profile.noTags')}
          </Text>
        ) : (
          <Table aria-label={t('people.profile.tags')} withRowBorders highlightOnHover={false} verticalSpacing={6} horizontalSpacing={0}>
            <Table.Tbody>
              {detail.tags.map((tag) => (
                <Table.Tr key={tag.id} data-testid="person-tag">
                  <Table.Td w="40%">
                    <Text size="sm" fw={600}>
                      {tag.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{tagValue(tag, lang)}</Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Badge size="sm" variant="light" color={tag.kind === 'user_tag' ? 'brand' : 'grape'} tt="none">
                      {t(`people.tagKind.${tag.kind}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Card>
      <Card>
        <Title order={3} fz="md" mb="sm">
          {t('people.profile.custom')}
        </Title>
        {custom.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('people.profile.noCustom')}
          </Text>
        ) : (
          <FactList facts={custom.map(([key, value]) => ({ label: key, value: propertyText(value), mono: true }))} />
        )}
      </Card>
    </Stack>
  );
}
