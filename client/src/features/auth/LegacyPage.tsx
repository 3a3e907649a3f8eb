/**
 * /legacy: sends a classic interface address to the screen that replaced it (shared/src/legacy.ts
 * says how addresses are read). `/legacy?path=/funnels` or `/legacy#/funnels` goes straight there
 * (a signed-out person signs in first and comes back); without a known address the page says where
 * each area lives now and lets a person paste an old address to find its new place.
 */
import { useMemo, useState } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { Anchor, Button, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { ROUTES, type Area } from '@gd/shared/routes';
import { legacyTarget } from '@gd/shared/legacy';
import { useT } from '../../i18n/useT.ts';
import { navKey } from '../../i18n/keys.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';

const AREAS: Area[] = ['main', 'acquisition', 'behavior', 'communication', 'products', 'manage', 'user'];

export default function LegacyPage() {
  const { t } = useT();
  const title = t('auth.info.legacy.title');
  usePageTitle(title);
  const location = useLocation();
  const [params] = useSearchParams();
  const asked = params.get('path') ?? (location.hash.length > 1 ? location.hash : '');
  const direct = asked ? legacyTarget(asked) : null;
  const [address, setAddress] = useState(asked);
  const [checked, setChecked] = useState<string | null>(asked || null);
  const found = useMemo(() => (checked ? legacyTarget(checked) : null), [checked]);

  if (direct) return <Navigate to={direct} replace />;

  const byArea = AREAS.map((area) => ({ area, routes: ROUTES.filter((r) => r.area === area && r.nav !== false).slice(0, 4) }));
  return (
    <Stack gap="md">
      <Title order={1} fz={22}>
        {title}
      </Title>
      <Text size="sm">{t('auth.info.legacy.body')}</Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setChecked(address.trim() || null);
        }}
      >
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            label={t('auth.info.legacy.address')}
            placeholder="https://…/#/funnels"
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
            data-testid="legacy-address"
          />
          <Button type="submit" variant="light">
            {t('auth.info.legacy.find')}
          </Button>
        </Group>
      </form>
      {checked && (
        <Text size="sm" c={found ? undefined : 'dimmed'} data-testid="legacy-result">
          {found ? (
            <Anchor component={Link} to={found}>
              {t('auth.info.legacy.movedTo', { screen: t(navKey(ROUTES.find((r) => r.path === found)?.label ?? 'dashboards')) })} <IconArrowRight size={14} style={{ verticalAlign: 'middle' }} />
            </Anchor>
          ) : (
            t('auth.info.legacy.unknown')
          )}
        </Text>
      )}
      <Text size="xs" fw={600} tt="uppercase" c="dimmed" mt="xs">
        {t('auth.info.legacy.whereNow')}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="xs">
        {byArea.map(({ area, routes }) => (
          <Stack key={area} gap={2}>
            <Text size="sm" fw={600}>
              {t(`area.${area}`)}
            </Text>
            {routes.map((r) => (
              <Anchor key={r.path} component={Link} to={r.path} size="sm">
                {t(navKey(r.label))}
              </Anchor>
            ))}
          </Stack>
        ))}
      </SimpleGrid>
      <Button component={Link} to="/login" variant="light">
        {t('auth.info.continue')}
      </Button>
    </Stack>
  );
}
