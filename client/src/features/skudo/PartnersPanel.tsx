/**
 * The partners tab: the publishers, their status (invited until they first sign in), tracking
 * URLs and clicks. A partner signs in with a one-time code: generated here (shown once, to hand
 * over, valid 30 minutes) or mailed with an invitation (valid 72 hours).
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey, IconMail, IconPlus, IconUsersGroup } from '@tabler/icons-react';
import { localeFor } from '@gd/shared/language';
import { SkudoPartnerCreate, SkudoPartnerInput, type SkudoAuthCode, type SkudoPartner } from '@gd/shared/schemas/skudo';
import { SkudoPartnerStatus } from '@gd/shared/skudo/model';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { EditDeleteIcons, GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDateTime } from '../../ui/format.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { PanelActions } from './PanelActions.tsx';
import { statusColour } from './payout.ts';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete' | 'code'; partner: SkudoPartner } | null;
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;
const shownStatus = (p: SkudoPartner) => (p.status === 'active' && p.lastSignInAt === null ? 'invited' : p.status);

export function PartnersPanel({ canEdit }: { canEdit: boolean }) {
  const { t, lang } = useT();
  const partners = useApiQuery('skudoPartners');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [inviting, setInviting] = useState<string | null>(null);
  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="skudo-add-partner">
      {t('skudo.partners.add')}
    </GatedButton>
  );
  const invite = async (p: SkudoPartner) => {
    setInviting(p.id);
    try {
      await api.call('inviteSkudoPartner', { params: { partnerId: p.id } });
      notifySuccess(t('skudo.partners.inviteSent', { email: p.email }));
    } catch (error) {
      notifyError(t, error);
    } finally {
      setInviting(null);
    }
  };
  return (
    <>
      <DataState query={partners}>
        {({ partners: list }) => (
          <>
            {list.length > 0 && <PanelActions>{addButton}</PanelActions>}
            <ListTable
              isEmpty={list.length === 0}
              empty={<EmptyBlock icon={<IconUsersGroup size={28} />} title={t('skudo.partners.emptyTitle')} description={t('skudo.partners.emptyBody')} action={addButton} />}
              label={t('skudo.tabs.partners')}
              minWidth={1000}
              head={
                <>
                  <Table.Th>{t('skudo.partners.name')}</Table.Th>
                  <Table.Th>{t('skudo.partners.status')}</Table.Th>
                  <Table.Th>{t('skudo.partners.lastSignIn')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.partners.urls')}</Table.Th>
                  <Table.Th ta="right">{t('skudo.partners.clicks')}</Table.Th>
                  <Table.Th ta="right">{t('common.actions')}</Table.Th>
                </>
              }
            >
              {list.map((p) => {
                const status = shownStatus(p);
                const active = p.status === 'active';
                return (
                  <Table.Tr key={p.id} data-testid="skudo-partner-row">
                    <Table.Td maw={300}>
                      <Text size="sm" fw={600} truncate="end" title={p.name}>{p.name}</Text>
                      <Text size="xs" c="dimmed" truncate="end">{p.email}</Text>
                    </Table.Td>
                    <Table.Td><Badge variant="light" color={statusColour(status)} tt="none" style={WHOLE} data-testid="skudo-partner-status">{t(`skudo.partnerStatus.${status}`)}</Badge></Table.Td>
                    <Table.Td><Text size="sm" c={p.lastSignInAt ? undefined : 'dimmed'}>{p.lastSignInAt ? formatDateTime(p.lastSignInAt, lang) : t('skudo.urls.never')}</Text></Table.Td>
                    <Table.Td ta="right"><Text size="sm">{t('skudo.offers.urlsCount', { active: p.activeUrls, total: p.urls })}</Text></Table.Td>
                    <Table.Td ta="right"><Text size="sm">{p.clicks.toLocaleString(localeFor(lang))}</Text></Table.Td>
                    <Table.Td>
                      <EditDeleteIcons
                        before={
                          <>
                            <GatedIcon allowed={canEdit && active} reason={active ? undefined : t('skudo.partners.suspendHint')} label={t('skudo.partners.invite')} loading={inviting === p.id} onClick={() => void invite(p)}>
                              <IconMail size={16} />
                            </GatedIcon>
                            {/* Icons (their names in the tooltips) so the row's actions fit a 1280 px screen in every language. */}
                            <GatedIcon
                              allowed={canEdit && active}
                              reason={active ? undefined : t('skudo.partners.suspendHint')}
                              label={t('skudo.partners.code')}
                              variant="light"
                              color="indigo"
                              onClick={() => setDialog({ kind: 'code', partner: p })}
                              data-testid="skudo-partner-code"
                              mx={4}
                            >
                              <IconKey size={16} />
                            </GatedIcon>
                          </>
                        }
                        edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', partner: p }) }}
                        remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', partner: p }) }}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </ListTable>
          </>
        )}
      </DataState>
      {dialog?.kind === 'add' && (
        <NewPartnerDialog
          onClose={() => setDialog(null)}
          onSaved={(invited) => {
            notifySuccess(invited ? t('skudo.partners.invited') : t('skudo.partners.created'));
            setDialog(null);
            partners.refetch();
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditPartnerDialog
          partner={dialog.partner}
          onClose={() => setDialog(null)}
          onSaved={() => {
            notifySuccess(t('common.saved'));
            setDialog(null);
            partners.refetch();
          }}
        />
      )}
      {dialog?.kind === 'code' && <CodeDialog partner={dialog.partner} onClose={() => setDialog(null)} />}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('skudo.partners.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('skudo.partners.deleteBody', { name: dialog.partner.name }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteSkudoPartner', { params: { partnerId: dialog.partner.id } });
          notifySuccess(t('skudo.deleted'));
          partners.refetch();
        }}
      />
    </>
  );
}

function NewPartnerDialog({ onClose, onSaved }: { onClose: () => void; onSaved: (invited: boolean) => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { name: '', email: '', invite: true }, validate: schemaValidator(SkudoPartnerCreate, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('createSkudoPartner', { body: values });
      onSaved(values.invite);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'email']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={t('skudo.partners.addTitle')} failure={failure} submitLabel={t('skudo.partners.add')} submitting={form.submitting} submitTestId="skudo-partner-save" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('skudo.partners.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <TextInput label={t('skudo.partners.fields.email')} type="email" required {...form.getInputProps('email')} />
      <Checkbox label={t('skudo.partners.inviteOnCreate')} {...form.getInputProps('invite', { type: 'checkbox' })} />
    </FormModal>
  );
}

function EditPartnerDialog({ partner, onClose, onSaved }: { partner: SkudoPartner; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({ initialValues: { name: partner.name, email: partner.email, status: partner.status }, validate: schemaValidator(SkudoPartnerInput, t) });
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      await api.call('updateSkudoPartner', { params: { partnerId: partner.id }, body: values });
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['name', 'email', 'status']);
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={t('skudo.partners.editTitle')} failure={failure} submitLabel={t('common.save')} submitting={form.submitting} submitTestId="skudo-partner-save" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('skudo.partners.fields.name')} required data-autofocus {...form.getInputProps('name')} />
      <TextInput label={t('skudo.partners.fields.email')} type="email" required {...form.getInputProps('email')} />
      <Stack gap={6}>
        <Text size="sm" fw={500} id="skudo-partner-status">{t('skudo.partners.fields.status')}</Text>
        <SegmentedControl
          aria-labelledby="skudo-partner-status"
          fullWidth
          data={SkudoPartnerStatus.map((s) => ({ value: s, label: t(`skudo.partnerStatus.${s}`) }))}
          value={form.values.status}
          onChange={(value) => form.setFieldValue('status', value)}
        />
        <Text size="xs" c="dimmed">{t('skudo.partners.suspendHint')}</Text>
      </Stack>
    </FormModal>
  );
}

/** Generates a code once when opened and shows it with its expiry and the sign-in link (it is never shown again). */
function CodeDialog({ partner, onClose }: { partner: SkudoPartner; onClose: () => void }) {
  const { t, lang } = useT();
  const [state, setState] = useState<{ code: SkudoAuthCode } | { error: unknown } | null>(null);
  const started = useRef(false);
  useEffect(() => {
    // Once per opening, also under React's double effects: each call voids the previous code.
    if (started.current) return;
    started.current = true;
    api.call('createSkudoAuthCode', { params: { partnerId: partner.id } }).then((code) => setState({ code }), (error: unknown) => setState({ error }));
  }, [partner.id]);
  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{t('skudo.code.title', { name: partner.name })}</Text>} size="md">
      <Stack gap="md">
        {state === null && (
          <Group gap="sm"><Loader size="sm" /><Text size="sm">{t('skudo.code.generating')}</Text></Group>
        )}
        {state && 'error' in state && <FormError error={state.error} />}
        {state && 'code' in state && (
          <>
            <Text size="sm" c="dimmed">{t('skudo.code.intro')}</Text>
            <Alert variant="light" color="indigo" p="md">
              <Group justify="space-between" wrap="nowrap">
                <Title order={2} fz={28} className="gd-mono" lts={2} data-testid="skudo-code">{state.code.code}</Title>
                <CopyField value={state.code.code} label={t('skudo.partners.code')} shown="" />
              </Group>
            </Alert>
            <Text size="sm">{t('skudo.code.expires', { time: formatDateTime(state.code.expiresAt, lang) })}</Text>
            <Stack gap={4}>
              <Text size="sm" fw={500}>{t('skudo.code.loginUrl')}</Text>
              <CopyField value={state.code.loginUrl} label={t('skudo.code.loginUrl')} maw={360} size="sm" />
            </Stack>
          </>
        )}
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('skudo.code.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
