/**
 * Web push in the "Push notifications" card of /user/app (endpoints/webPush.ts): whether it is on,
 * the VAPID public key browsers subscribe with and the contact (subject) push services see.
 * People who may edit the app enable it (the server makes the key pair), change the contact,
 * rotate the keys and disable it; the private key is never answered.
 */
import { useState } from 'react';
import { Badge, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBrowser, IconCircleCheck, IconCircleDashed, IconKey, IconRefresh, IconTrash } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { VapidSubject, type WebPushSettings } from '@gd/shared/schemas/webPush';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useSession } from '../../session/store.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { GatedButton } from '../../ui/Gated.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';

export function WebPushPanel({ app, editable }: { app: MetaApp; editable: boolean }) {
  const { t, lang } = useT();
  const query = useApiQuery('getWebPush', { params: { appId: app.id }, scope: 'app' });
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'disable' | null>(null);
  const done = (text: string) => {
    notifySuccess(text);
    setDialog(null);
    query.refetch();
  };
  return (
    <Paper withBorder p="md" radius="md" mt="md" data-testid="push-web">
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconBrowser size={20} />
          <div>
            <Text fw={600} size="sm">{t('webPush.title')}</Text>
            <Text size="xs" c="dimmed">{t('webPush.platform')}</Text>
          </div>
        </Group>
        {/* Whether it is on is known only once loaded: no "Disabled" (and no Enable) while loading or after an error. */}
        <DataState query={query} rows={2}>
          {({ webPush }) => (
            <>
              <Group>
                <Badge variant="light" color={webPush ? 'teal' : 'gray'} tt="none" leftSection={webPush ? <IconCircleCheck size={12} /> : <IconCircleDashed size={12} />} data-testid="web-push-status">
                  {webPush ? t('webPush.enabled') : t('webPush.disabled')}
                </Badge>
              </Group>
              {webPush ? (
                <Stack gap={4}>
                  <Text size="xs" c="dimmed">{t('webPush.description')}</Text>
                  <Group gap="sm" wrap="nowrap">
                    <Text size="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>{t('webPush.publicKey')}</Text>
                    <Text size="sm" className="gd-mono" truncate="end" title={webPush.publicKey} data-testid="web-push-public-key">{webPush.publicKey}</Text>
                  </Group>
                  <Group gap="sm" wrap="nowrap">
                    <Text size="sm" c="dimmed" w={120} style={{ flexShrink: 0 }}>{t('webPush.subject')}</Text>
                    <Text size="sm" truncate="end" title={webPush.subject}>{webPush.subject}</Text>
                  </Group>
                </Stack>
              ) : (
                <Text size="sm" c="dimmed">{t('webPush.disabledBody')}</Text>
              )}
              <Group justify="space-between" wrap="nowrap">
                <Text size="xs" c="dimmed">{webPush ? t('pushCredentials.updated', { date: formatDateTime(webPush.updatedAt, lang) }) : ''}</Text>
                <Group gap="xs" wrap="nowrap">
                  {webPush && (
                    <>
                      <GatedButton allowed={editable} size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => setDialog('disable')}>
                        {t('webPush.disable')}
                      </GatedButton>
                      <GatedButton allowed={editable} size="compact-sm" variant="default" leftSection={<IconRefresh size={14} />} onClick={() => setDialog('rotate')} data-testid="web-push-rotate">
                        {t('webPush.rotate')}
                      </GatedButton>
                    </>
                  )}
                  <GatedButton allowed={editable} size="compact-sm" variant={webPush ? 'default' : 'filled'} leftSection={<IconKey size={14} />} onClick={() => setDialog('edit')} data-testid="web-push-edit">
                    {webPush ? t('webPush.edit') : t('webPush.enable')}
                  </GatedButton>
                </Group>
              </Group>
            </>
          )}
        </DataState>
      </Stack>
      {dialog === 'edit' && <SubjectDialog app={app} current={query.data?.webPush ?? null} onClose={() => setDialog(null)} onSaved={() => done(t('webPush.saved'))} />}
      <ConfirmDialog
        opened={dialog === 'rotate' || dialog === 'disable'}
        title={dialog === 'rotate' ? t('webPush.rotateTitle') : t('webPush.disableTitle')}
        message={dialog === 'rotate' ? t('webPush.rotateBody') : t('webPush.disableBody', { app: app.name })}
        confirmLabel={dialog === 'rotate' ? t('webPush.rotate') : t('webPush.disable')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog === 'rotate') {
            await api.call('rotateWebPush', { params: { appId: app.id } });
            done(t('webPush.rotated'));
          } else {
            await api.call('deleteWebPush', { params: { appId: app.id } });
            done(t('webPush.disabledNotice'));
          }
        }}
      />
    </Paper>
  );
}

/** Enable web push, or change its contact: a mailto: address (the signed-in person's by default) or an https: page. */
function SubjectDialog({ app, current, onClose, onSaved }: { app: MetaApp; current: WebPushSettings | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const email = useSession((s) => s.meta?.user.email);
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { subject: current?.subject ?? (email ? `mailto:${email}` : '') },
    validate: { subject: (v) => (VapidSubject.safeParse(v).success ? null : t('webPush.subjectInvalid')) },
  });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('putWebPush', { params: { appId: app.id }, body: { subject: values.subject } });
      onSaved();
    } catch (error) {
      setFailure(error);
    }
  });
  return (
    <FormModal title={t('webPush.title')} intro={t('webPush.description')} failure={failure} submitLabel={t('webPush.save')} submitting={form.submitting} submitTestId="web-push-save" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('webPush.subject')} description={t('webPush.subjectHint')} required data-autofocus {...form.getInputProps('subject')} />
    </FormModal>
  );
}
