/**
 * The dialogs of a templates screen (add, edit, delete) and "make default", the same for an app's
 * templates and the platform's: only the calls differ (`scope`).
 */
import { useState, type ReactNode } from 'react';
import type { NativeTemplate } from '@gd/shared/schemas/messageSettings';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { TemplateDialog, type TemplateScope } from './TemplateDialog.tsx';
import { localizedDefaultRefusal, templateBody, initialTemplateValues } from './templateForm.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; template: NativeTemplate } | null;

export function useTemplateActions(scope: TemplateScope, refetch: () => void): {
  add: () => void;
  edit: (template: NativeTemplate) => void;
  remove: (template: NativeTemplate) => void;
  makeDefault: (template: NativeTemplate) => void;
  dialogs: ReactNode;
} {
  const { t } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);

  const makeDefault = (template: NativeTemplate) => {
    const body = { ...templateBody(initialTemplateValues(template)), isDefault: true };
    const call = scope.kind === 'app'
      ? api.call('updateNativeTemplate', { params: { appId: scope.appId, templateId: template.id }, body })
      : api.call('updatePlatformNativeTemplate', { params: { templateId: template.id }, body });
    call.then(() => {
      notifySuccess(t('messageSettings.templates.madeDefault', { name: template.name }));
      refetch();
    }, (error: unknown) => notifyError(t, localizedDefaultRefusal(error, t)));
  };

  const dialogs = (
    <>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <TemplateDialog
          scope={scope}
          template={dialog.kind === 'edit' ? dialog.template : undefined}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(dialog.kind === 'add' ? t('messageSettings.templates.created') : t('common.saved'));
            setDialog(null);
            refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('messageSettings.templates.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('messageSettings.templates.deleteBody', { name: dialog.template.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          const id = dialog.template.id;
          try {
            if (scope.kind === 'app') await api.call('deleteNativeTemplate', { params: { appId: scope.appId, templateId: id } });
            else await api.call('deletePlatformNativeTemplate', { params: { templateId: id } });
          } catch (error) {
            throw localizedDefaultRefusal(error, t);
          }
          notifySuccess(t('messageSettings.templates.deleted'));
          refetch();
        }}
      />
    </>
  );

  return {
    add: () => setDialog({ kind: 'add' }),
    edit: (template) => setDialog({ kind: 'edit', template }),
    remove: (template) => setDialog({ kind: 'delete', template }),
    makeDefault,
    dialogs,
  };
}
