/**
 * /skudo/offers: the signed-in partner's offers (their partner session, not an account user's):
 * each offer with its payout, destination and status, and the partner's own tracking URLs with
 * their clicks. Without a partner session (10006) it goes back to /skudo/login.
 */
import { useCallback, useEffect, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import {
  Alert, Anchor, Badge, Box, Button, Container, Group, Image, Paper, Stack, Table, Text, ThemeIcon, Title,
} from '@mantine/core';
import { IconChartArrowsVertical, IconLogout, IconTag } from '@tabler/icons-react';
import { ErrorCode } from '@gd/shared/errors';
import { localeFor } from '@gd/shared/language';
import type { SkudoPartnerMe, SkudoPartnerOffer } from '@gd/shared/schemas/skudo';
import { api } from '../../api/client.ts';
import { ApiError } from '../../api/errors.ts';
import { useT } from '../../i18n/useT.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { PageLoader } from '../../ui/Loading.tsx';
import { EmptyBlock, ErrorBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { PartnerTexts } from './PartnerTexts.tsx';
import { payoutText, statusColour } from './payout.ts';

type Load = { state: 'loading' } | { state: 'ready'; partner: SkudoPartnerMe; offers: SkudoPartnerOffer[] } | { state: 'signedOut' } | { state: 'error'; error: unknown };
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export default function PartnerOffersPage() {
  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)">
      <PartnerTexts>
        <Offers />
      </PartnerTexts>
    </Box>
  );
}

function Offers() {
  const { t, lang } = useT();
  usePageTitle(t('skudo.partnerPage.title'));
  const navigate = useNavigate();
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const fetchOffers = useCallback(() => {
    api.call('skudoPartnerOffers').then(
      ({ partner, offers }) => setLoad({ state: 'ready', partner, offers }),
      (error: unknown) => setLoad(error instanceof ApiError && error.code === ErrorCode.ACCESS_TOKEN_INVALID ? { state: 'signedOut' } : { state: 'error', error }),
    );
  }, []);
  useEffect(fetchOffers, [fetchOffers]);
  const retry = () => {
    setLoad({ state: 'loading' });
    fetchOffers();
  };
  const signOut = async () => {
    await api.call('skudoPartnerLogout').catch(() => undefined);
    await navigate('/skudo/login', { replace: true });
  };

  if (load.state === 'signedOut') return <Navigate to="/skudo/login?ended=1" replace />;
  const total = load.state === 'ready' ? load.offers.reduce((n, o) => n + o.urls.reduce((m, u) => m + u.clicks, 0), 0) : 0;
  return (
    <>
      <Box bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Group gap={10} wrap="nowrap">
              <ThemeIcon size={32} radius="md" variant="filled"><IconChartArrowsVertical size={20} /></ThemeIcon>
              <Text fw={700} fz={18}>{t('app.name')}</Text>
              <Badge variant="light" tt="none">Skudo</Badge>
            </Group>
            {load.state === 'ready' && (
              <Group gap="sm" wrap="nowrap">
                <Text size="sm" c="dimmed" visibleFrom="sm" data-testid="skudo-partner-name">{t('skudo.partnerPage.signedInAs', { name: load.partner.name })}</Text>
                <Button variant="default" size="xs" leftSection={<IconLogout size={14} />} onClick={() => void signOut()} data-testid="skudo-partner-signout">
                  {t('skudo.partnerPage.signOut')}
                </Button>
              </Group>
            )}
          </Group>
        </Container>
      </Box>
      <Container size="lg" py="xl" component="main">
        {load.state === 'loading' && <PageLoader />}
        {load.state === 'error' && <Paper withBorder><ErrorBlock error={load.error} onRetry={retry} /></Paper>}
        {load.state === 'ready' && (
          <Stack gap="lg">
            <Group justify="space-between" align="flex-end" wrap="nowrap">
              <div>
                <Title order={1} fz={26}>{t('skudo.partnerPage.title')}</Title>
                <Text c="dimmed" size="sm" mt={4}>{t('skudo.partnerPage.subtitle', { account: load.partner.accountName })}</Text>
              </div>
              {load.offers.length > 0 && <Badge size="lg" variant="light" color="teal" tt="none" style={WHOLE} data-testid="skudo-partner-total">{t('skudo.partnerPage.totalClicks', { count: total.toLocaleString(localeFor(lang)) })}</Badge>}
            </Group>
            {load.offers.length === 0 ? (
              <Paper withBorder>
                <EmptyBlock icon={<IconTag size={28} />} title={t('skudo.partnerPage.emptyTitle')} description={t('skudo.partnerPage.emptyBody', { account: load.partner.accountName })} />
              </Paper>
            ) : (
              load.offers.map((offer) => <OfferCard key={offer.id} offer={offer} />)
            )}
          </Stack>
        )}
      </Container>
    </>
  );
}

function OfferCard({ offer }: { offer: SkudoPartnerOffer }) {
  const { t, lang } = useT();
  return (
    <Paper withBorder radius="md" p="lg" data-testid="skudo-partner-offer">
      <Stack gap="md">
        <Group align="flex-start" wrap="nowrap" gap="md">
          {offer.imageUrl ? (
            <Image src={offer.imageUrl} alt="" w={72} h={72} radius="md" fit="cover" style={{ flexShrink: 0 }} />
          ) : (
            <ThemeIcon size={72} radius="md" variant="light" style={{ flexShrink: 0 }}><IconTag size={32} /></ThemeIcon>
          )}
          <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Title order={2} fz={18} style={{ minWidth: 0 }}>{offer.title}</Title>
              <Group gap="xs" wrap="nowrap">
                <Badge variant="light" color="indigo" tt="none" style={WHOLE}>{payoutText(t, lang, offer)}</Badge>
                <Badge variant="light" color={statusColour(offer.status)} tt="none" style={WHOLE}>{t(`skudo.status.${offer.status}`)}</Badge>
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              {t('skudo.partnerPage.provider', { name: offer.providerName })}
              {offer.campaignName && ` · ${t('skudo.partnerPage.campaign', { name: offer.campaignName })}`}
            </Text>
            {offer.description && <Text size="sm">{offer.description}</Text>}
            <Text size="sm">
              <Text span c="dimmed">{t('skudo.partnerPage.destination')}: </Text>
              <Anchor href={offer.destinationUrl.replaceAll('{click_id}', '')} target="_blank" rel="noreferrer noopener" style={{ wordBreak: 'break-all' }}>
                {offer.destinationUrl.replace(/^https?:\/\//, '').replace(/[?&][^=&]*=\{click_id\}/, '')}
              </Anchor>
            </Text>
          </Stack>
        </Group>
        {offer.status === 'paused' && <Alert variant="light" color="yellow" py={8}>{t('skudo.partnerPage.offerPaused')}</Alert>}
        {offer.status === 'ended' && <Alert variant="light" color="gray" py={8}>{t('skudo.partnerPage.offerEnded')}</Alert>}
        <Paper withBorder radius="sm">
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label={t('skudo.partnerPage.yourUrls')} style={{ whiteSpace: 'nowrap' }}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('skudo.urls.label')}</Table.Th>
                  <Table.Th>{t('skudo.urls.address')}</Table.Th>
                  <Table.Th>{t('skudo.offers.status')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.urls.clicks')}</Table.Th>
                  <Table.Th>{t('skudo.urls.lastClick')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {offer.urls.map((u) => (
                  <Table.Tr key={u.id} data-testid="skudo-partner-url">
                    <Table.Td maw={220}><Text size="sm" truncate="end">{u.label}</Text></Table.Td>
                    <Table.Td><CopyField value={u.url} label={t('skudo.urls.address')} maw={320} size="sm" /></Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={!u.active ? 'gray' : u.live ? 'teal' : 'yellow'} tt="none" style={WHOLE}>
                        {!u.active ? t('skudo.urls.inactive') : u.live ? t('skudo.urls.live') : t('skudo.urls.notLive')}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right"><Text size="sm" fw={600}>{u.clicks.toLocaleString(localeFor(lang))}</Text></Table.Td>
                    <Table.Td><Text size="sm" c={u.lastClickAt ? undefined : 'dimmed'}>{u.lastClickAt ? formatDateTime(u.lastClickAt, lang) : t('skudo.urls.never')}</Text></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      </Stack>
    </Paper>
  );
}
