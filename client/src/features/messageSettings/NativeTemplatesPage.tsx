/**
 * /manage/native-templates: the app's native ad templates (the fields each native ad carries),
 * and, below them, the platform's, which every app may also use. Until the app has a template of
 * its own its native ads use the platform default. The route key shows them; `ui:app.edit`
 * changes them (endpoints/messageSettings.ts says why that key).
 */
import { Stack, Text, Title } from '@mantine/core';
import { IconLayoutGrid, IconPlus } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { AppScreen } from '../../shell/AppScreen.tsx';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock, NoViewBlock } from '../../ui/States.tsx';
import { TemplateTable } from './TemplateTable.tsx';
import { useTemplateActions } from './useTemplateActions.tsx';

export default function NativeTemplatesPage() {
  const { t } = useT();
  return (
    <AppScreen title={t('nav.nativeTemplates')} descriptionNoApp={t('messageSettings.templates.descriptionNoApp')}>
      {(app) => <Templates app={app} />}
    </AppScreen>
  );
}

function Templates({ app }: { app: MetaApp }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canView = can('route:/manage/native-templates');
  const canEdit = can('ui:app.edit');
  // The app's templates and the platform's in one call (what a native ad may choose from).
  const choices = useApiQuery('listNativeTemplateChoices', { params: { appId: app.id }, scope: 'app', enabled: canView });
  const actions = useTemplateActions({ kind: 'app', appId: app.id }, choices.refetch);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={actions.add}>
      {t('messageSettings.templates.add')}
    </GatedButton>
  );
  const header = <PageHeader title={t('nav.nativeTemplates')} description={t('messageSettings.templates.description', { app: app.name })} actions={canView ? addButton : undefined} />;
  if (!canView) {
    return (
      <>
        {header}
        <NoViewBlock description={t('messageSettings.templates.noView')} />
      </>
    );
  }

  return (
    <>
      {header}
      <DataState query={choices}>
        {({ templates }) => {
          const own = templates.filter((template) => template.scope === 'app');
          const platform = templates.filter((template) => template.scope === 'platform');
          const platformDefault = platform.find((template) => template.isDefault);
          return (
            <Stack gap="xl">
              <TemplateTable
                templates={own}
                label={t('nav.nativeTemplates')}
                canEdit={canEdit}
                onEdit={actions.edit}
                onDelete={actions.remove}
                onMakeDefault={actions.makeDefault}
                empty={
                  <EmptyBlock
                    icon={<IconLayoutGrid size={28} />}
                    title={t('messageSettings.templates.emptyTitle')}
                    description={[t('messageSettings.templates.emptyBody'), platformDefault ? t('messageSettings.templates.platformFallback', { name: platformDefault.name }) : ''].filter(Boolean).join(' ')}
                    action={addButton}
                  />
                }
              />
              {platform.length > 0 && (
                <Stack gap="xs">
                  <div>
                    <Title order={2} fz="lg">{t('messageSettings.templates.platformTitle')}</Title>
                    <Text size="sm" c="dimmed">{t('messageSettings.templates.platformDescription')}</Text>
                  </div>
                  <TemplateTable templates={platform} label={t('messageSettings.templates.platformTitle')} canEdit={null} empty={null} />
                </Stack>
              )}
            </Stack>
          );
        }}
      </DataState>
      {actions.dialogs}
    </>
  );
}
