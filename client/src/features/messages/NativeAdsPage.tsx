/**
 * /communication/messaging/native_ad: the app's native ad campaigns (messages of type native_ad,
 * each with its variants; the list's filters, without the type), and the templates they are built
 * from: the app's own and the platform's, the default one marked, with a link to manage them. A
 * native ad is edited like every message, on /communication/messaging (its variants, and the
 * template's fields per variant and language).
 */
import { Link } from 'react-router';
import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useSession } from '../../session/store.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { MessageList } from './MessageList.tsx';

function Templates() {
  const { t } = useT();
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const choices = useApiQuery('listNativeTemplateChoices', { params: { appId }, scope: 'app', enabled: appId !== '' });
  const templates = choices.data?.templates;
  return (
    <Paper withBorder radius="md" p="md" mb="md" data-testid="native-templates-summary">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
        <Stack gap={6} style={{ minWidth: 0 }}>
          <Group gap={8} wrap="nowrap">
            <IconTemplate size={18} color="var(--mantine-color-gray-6)" aria-hidden />
            <Text fw={600} size="sm">{t('messages.nativeAds.templates')}</Text>
          </Group>
          {choices.state === 'error' && !templates ? (
            <Text size="sm" c="red">{t('messages.nativeAds.templatesFailed')}</Text>
          ) : !templates ? (
            <Skeleton h={22} w={320} />
          ) : templates.length === 0 ? (
            <Text size="sm" c="dimmed" data-testid="no-native-templates">{t('messages.nativeAds.noTemplates')}</Text>
          ) : (
            <Group gap={6} wrap="wrap">
              {templates.map((tpl) => (
                <Badge
                  key={tpl.id} variant={tpl.id === choices.data?.defaultId ? 'filled' : 'light'} color={tpl.scope === 'app' ? 'blue' : 'gray'} tt="none" radius="sm"
                  data-testid="native-template-chip" title={t('messages.nativeAds.fields', { count: tpl.fields.length })}
                >
                  {tpl.name}
                  {tpl.id === choices.data?.defaultId ? ` · ${t('messages.nativeAds.default')}` : ''}
                  {tpl.scope === 'platform' ? ` · ${t('messages.nativeAds.platform')}` : ''}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
        {can('route:/manage/native-templates') && (
          <Anchor component={Link} to="/manage/native-templates" size="sm" style={{ flexShrink: 0 }}>
            {t('messages.nativeAds.manage')}
          </Anchor>
        )}
      </Group>
    </Paper>
  );
}

export default function NativeAdsPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.nativeAd')} descriptionNoApp={t('messages.nativeAds.description')}>
      {() => (
        <MessageList fixedType="native_ad" title={t('nav.nativeAd')} description={t('messages.nativeAds.description')} aside={<Templates />}
          texts={{ new: t('messages.nativeAds.new'), emptyTitle: t('messages.nativeAds.emptyTitle'), emptyBody: t('messages.nativeAds.emptyBody') }}
        />
      )}
    </AppScreen>
  );
}
