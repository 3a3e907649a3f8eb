/**
 * A link's details: its short link (copy), a QR code of it (PNG download), a builder of click
 * addresses with tracking parameters for a placement or network, and its latest clicks.
 */
import { useEffect, useMemo, useState } from 'react';
import { Anchor, Badge, Group, Image, Modal, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import QRCode from 'qrcode';
import { linkUrl } from '@gd/shared/acquisition/links';
import { TRACKING_LINK_PARAMS, type TrackingLinkParam } from '@gd/shared/acquisition/model';
import type { Link, LinkClick } from '@gd/shared/schemas/links';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { formatDateTime } from '../../ui/format.ts';

export function LinkDetails({ appId, link, baseUrl, onClose }: { appId: string; link: Link; baseUrl: string; onClose: () => void }) {
  const { t } = useT();
  const [extra, setExtra] = useState<Partial<Record<TrackingLinkParam, string>>>({});
  const built = useMemo(() => linkUrl(baseUrl, link.code, { ...link.params, ...extra }), [baseUrl, link, extra]);
  const [qr, setQr] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toDataURL(built, { margin: 1, width: 480, errorCorrectionLevel: 'M' }).then((url) => live && setQr(url), () => live && setQr(null));
    return () => { live = false; };
  }, [built]);

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{t('links.details.title', { name: link.name })}</Text>} size="xl">
      <Stack gap="lg">
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <Stack gap="md" style={{ flex: 1, minWidth: 0 }}>
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t('links.details.shortLink')}</Text>
              <CopyField value={link.url} label={t('links.details.shortLink')} />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t('links.details.pixel')}</Text>
              <Text size="xs" c="dimmed">{t('links.details.pixelHint')}</Text>
              <CopyField value={`${link.url.split('?')[0]}/i`} label={t('links.details.pixel')} />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t('links.details.builder')}</Text>
              <Text size="xs" c="dimmed">{t('links.details.builderHint')}</Text>
              <SimpleGrid cols={{ base: 3, sm: 6 }} spacing={6}>
                {TRACKING_LINK_PARAMS.map((p) => (
                  <TextInput
                    key={p}
                    size="xs"
                    label={p}
                    className="gd-mono"
                    placeholder={link.params[p] ?? ''}
                    value={extra[p] ?? ''}
                    onChange={(e) => { const value = e.currentTarget.value; setExtra((x) => ({ ...x, [p]: value })); }}
                  />
                ))}
              </SimpleGrid>
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>{t('links.details.built')}</Text>
              <Paper withBorder px="sm" py={6} data-testid="built-url">
                <CopyField value={built} label={t('links.details.built')} />
              </Paper>
            </Stack>
          </Stack>
          <Stack gap={6} align="center" w={180} style={{ flexShrink: 0 }}>
            <Text size="sm" fw={600}>{t('links.details.qr')}</Text>
            {qr && <Image src={qr} w={160} h={160} alt={t('links.details.qrAlt', { url: built })} data-testid="link-qr" />}
            {qr && <Anchor size="xs" href={qr} download={`${link.code}-qr.png`}>{t('links.details.downloadQr')}</Anchor>}
          </Stack>
        </Group>
        <Clicks appId={appId} linkId={link.id} />
      </Stack>
    </Modal>
  );
}

function Clicks({ appId, linkId }: { appId: string; linkId: string }) {
  const { t, lang } = useT();
  const clicks = useApiQuery('linkClicks', { params: { appId, linkId }, scope: 'app' });
  const ids = (c: LinkClick) => Object.entries(c.deviceIds).map(([k, v]) => `${k}: ${v}`).join(' · ');
  const params = (c: LinkClick) => Object.entries(c.params).map(([k, v]) => `${k}=${v}`).join(' ');
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>{t('links.details.clicksTitle')}</Text>
      <DataState query={clicks}>
        {({ clicks: list }) => list.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="no-clicks">{t('links.details.noClicks')}</Text>
        ) : (
          <Paper withBorder>
            <Table.ScrollContainer minWidth={760} mah={320}>
              <Table aria-label={t('links.details.clicksTitle')} style={{ whiteSpace: 'nowrap' }} fz="xs" stickyHeader>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('links.details.time')}</Table.Th>
                    <Table.Th>{t('links.details.platform')}</Table.Th>
                    <Table.Th>{t('links.details.device')}</Table.Th>
                    <Table.Th>{t('links.details.ip')}</Table.Th>
                    <Table.Th>{t('links.details.ids')}</Table.Th>
                    <Table.Th>{t('links.details.params')}</Table.Th>
                    <Table.Th>{t('links.fields.status')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((c) => (
                    <Table.Tr key={c.id} data-testid="click-row">
                      <Table.Td>{formatDateTime(c.clickedAt, lang)}</Table.Td>
                      <Table.Td>{t(`links.platformShort.${c.platform}`)}</Table.Td>
                      <Table.Td>{[c.device, c.os && `${c.os} ${c.osVersion ?? ''}`.trim(), c.browser].filter(Boolean).join(' · ')}</Table.Td>
                      <Table.Td className="gd-mono">{c.ip ?? '—'}</Table.Td>
                      <Table.Td className="gd-mono" maw={200} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={ids(c)}>{ids(c) || '—'}</Table.Td>
                      <Table.Td className="gd-mono" maw={220} style={{ overflow: 'hidden', textOverflow: 'ellipsis' }} title={params(c)}>{params(c) || '—'}</Table.Td>
                      <Table.Td>
                        {c.bot
                          ? <Badge size="sm" variant="light" color="orange" tt="none">{botLabel(c.botReason, t)}</Badge>
                          : <Badge size="sm" variant="light" color="teal" tt="none">{t('links.details.counted')}</Badge>}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </DataState>
    </Stack>
  );
}

function botLabel(reason: string | null, t: ReturnType<typeof useT>['t']): string {
  switch (reason) {
    case 'head': return t('links.details.botReason.head');
    case 'prefetch': return t('links.details.botReason.prefetch');
    case 'no_user_agent': return t('links.details.botReason.no_user_agent');
    default: return t('links.details.botReason.bot');
  }
}
