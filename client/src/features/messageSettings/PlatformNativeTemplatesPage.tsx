/**
 * /admin/native-templates: the platform's native ad templates, offered to every account (platform
 * administrators only: the route key, which only Super admins hold, shows and changes them). The
 * default is what native ads use in apps without templates of their own.
 */
import { IconLayoutGrid, IconPlus } from '@tabler/icons-react';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { TemplateTable } from './TemplateTable.tsx';
import { useTemplateActions } from './useTemplateActions.tsx';

export default function PlatformNativeTemplatesPage() {
  const { t } = useT();
  const can = usePermissions('account');
  const canEdit = can('route:/admin/native-templates');
  const templates = useApiQuery('listPlatformNativeTemplates');
  const actions = useTemplateActions({ kind: 'platform' }, templates.refetch);
  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={actions.add}>
      {t('messageSettings.templates.add')}
    </GatedButton>
  );
  return (
    <>
      <PageHeader title={t('nav.adminNativeTemplates')} description={t('messageSettings.templates.platformDescription')} actions={addButton} />
      <DataState query={templates}>
        {({ templates: list }) => (
          <TemplateTable
            templates={list}
            label={t('nav.adminNativeTemplates')}
            canEdit={canEdit}
            onEdit={actions.edit}
            onDelete={actions.remove}
            onMakeDefault={actions.makeDefault}
            empty={<EmptyBlock icon={<IconLayoutGrid size={28} />} title={t('messageSettings.templates.platformEmptyTitle')} description={t('messageSettings.templates.platformEmptyBody')} action={addButton} />}
          />
        )}
      </DataState>
      {actions.dialogs}
    </>
  );
}
