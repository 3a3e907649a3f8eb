/**
 * The account's signing settings (shared by every app): Apple Wallet's pass type certificate
 * (its SHA-256 fingerprint in SPEC.md 5 format, pass type, team, expiry) and Google Wallet's
 * issuer. Missing settings say what to add and where it comes from; keys are write-only.
 */
import { useState } from 'react';
import { Badge, Card, Group, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBrandApple, IconBrandGoogle, IconCertificate, IconPlus } from '@tabler/icons-react';
import { AppleSigningInput, GoogleSigningInput, type WalletProvider, type WalletSigning } from '@gd/shared/schemas/wallet';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { CopyField } from '../../ui/CopyField.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { FormModal } from '../../ui/FormModal.tsx';
import { formatDate } from '../../ui/format.ts';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { readServiceAccount, signingIssueText } from './walletForm.ts';

type Dialog = { kind: 'edit' | 'remove'; provider: WalletProvider } | null;

export function SigningPanel({ signing, canEdit, onChanged }: { signing: WalletSigning; canEdit: boolean; onChanged: () => void }) {
  const { t, lang } = useT();
  const [dialog, setDialog] = useState<Dialog>(null);
  const { apple, google } = signing;
  const done = () => {
    setDialog(null);
    onChanged();
  };
  const actions = (provider: WalletProvider) => (
    <EditDeleteIcons edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', provider }) }} remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'remove', provider }) }} />
  );
  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mb="lg">
        <Card withBorder padding="md" data-testid="signing-apple">
          <Group justify="space-between" wrap="nowrap" mb="xs">
            <Group gap="xs" wrap="nowrap"><IconBrandApple size={18} /><Text fw={600}>{t('wallet.signing.apple')}</Text></Group>
            {apple && actions('apple')}
          </Group>
          {apple ? (
            <Stack gap={6}>
              <Group gap="xs" wrap="wrap">
                <Badge variant="light" color="indigo" tt="none">{apple.passTypeIdentifier}</Badge>
                <Badge variant="outline" color="gray" tt="none">{t('wallet.signing.team')} {apple.teamIdentifier}</Badge>
                <Badge variant="light" color="teal" tt="none">{t('wallet.signing.expires', { date: formatDate(apple.notAfter, lang) })}</Badge>
              </Group>
              <Text size="xs" c="dimmed" truncate="end" title={apple.subject}>{apple.subject}</Text>
              <Text size="xs" c="dimmed">{t('wallet.signing.fingerprint')}</Text>
              <CopyField value={apple.fingerprint} label={t('wallet.signing.fingerprint')} size="sm" maw={420} />
            </Stack>
          ) : (
            <Stack gap="sm" align="flex-start">
              <Text size="sm" c="dimmed" data-testid="apple-missing">{t('wallet.signing.appleMissing')}</Text>
              <GatedButton allowed={canEdit} size="xs" variant="light" leftSection={<IconCertificate size={14} />} onClick={() => setDialog({ kind: 'edit', provider: 'apple' })}>{t('wallet.signing.addApple')}</GatedButton>
            </Stack>
          )}
        </Card>
        <Card withBorder padding="md" data-testid="signing-google">
          <Group justify="space-between" wrap="nowrap" mb="xs">
            <Group gap="xs" wrap="nowrap"><IconBrandGoogle size={18} /><Text fw={600}>{t('wallet.signing.google')}</Text></Group>
            {google && actions('google')}
          </Group>
          {google ? (
            <Stack gap={6}>
              <Text size="sm"><Text span c="dimmed">{t('wallet.signing.issuer')}: </Text><Text span className="gd-mono">{google.issuerId}</Text></Text>
              <Text size="sm" truncate="end"><Text span c="dimmed">{t('wallet.signing.serviceAccount')}: </Text>{google.serviceAccountEmail}</Text>
            </Stack>
          ) : (
            <Stack gap="sm" align="flex-start">
              <Text size="sm" c="dimmed" data-testid="google-missing">{t('wallet.signing.googleMissing')}</Text>
              <GatedButton allowed={canEdit} size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setDialog({ kind: 'edit', provider: 'google' })}>{t('wallet.signing.addGoogle')}</GatedButton>
            </Stack>
          )}
        </Card>
      </SimpleGrid>
      {dialog?.kind === 'edit' && dialog.provider === 'apple' && <AppleDialog current={apple} onClose={() => setDialog(null)} onSaved={done} />}
      {dialog?.kind === 'edit' && dialog.provider === 'google' && <GoogleDialog current={google} onClose={() => setDialog(null)} onSaved={done} />}
      <ConfirmDialog
        opened={dialog?.kind === 'remove'}
        title={t('wallet.signing.removeTitle')}
        message={dialog?.provider === 'google' ? t('wallet.signing.removeGoogleBody') : t('wallet.signing.removeAppleBody')}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (!dialog) return;
          await api.call('deleteWalletSigning', { params: { provider: dialog.provider } });
          notifySuccess(t('wallet.signing.removed'));
          onChanged();
        }}
      />
    </>
  );
}

const pem = { rows: 4, classNames: { input: 'gd-mono' }, autosize: true, maxRows: 6, spellCheck: false } as const;

function AppleDialog({ current, onClose, onSaved }: { current: WalletSigning['apple']; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm({
    initialValues: { passTypeIdentifier: current?.passTypeIdentifier ?? '', teamIdentifier: current?.teamIdentifier ?? '', certificatePem: '', privateKeyPem: '', wwdrPem: '' },
    validate: schemaValidator(AppleSigningInput, t, {}, (v: { privateKeyPem: string }) => ({ ...v, privateKeyPem: v.privateKeyPem.trim() || undefined })),
  });
  const submit = form.onSubmit(async (v) => {
    setFailure(null);
    try {
      await api.call('putAppleWalletSigning', { body: { ...v, privateKeyPem: v.privateKeyPem.trim() || undefined } });
      notifySuccess(t('wallet.signing.saved'));
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['passTypeIdentifier', 'teamIdentifier', 'certificatePem', 'privateKeyPem', 'wwdrPem'], (m) => signingIssueText(t, m));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  return (
    <FormModal title={t('wallet.signing.appleTitle')} failure={failure} submitLabel={t('common.save')} submitting={form.submitting} submitTestId="apple-save" onSubmit={submit} onClose={onClose}>
      <Group grow align="flex-start">
        <TextInput label={t('wallet.signing.fields.passTypeIdentifier')} placeholder={t('wallet.signing.hints.passTypeIdentifier')} required withAsterisk={false} {...form.getInputProps('passTypeIdentifier')} />
        <TextInput label={t('wallet.signing.fields.teamIdentifier')} placeholder="ABCDE12345" required withAsterisk={false} classNames={{ input: 'gd-mono' }} {...form.getInputProps('teamIdentifier')} />
      </Group>
      <Textarea label={t('wallet.signing.fields.certificatePem')} placeholder="-----BEGIN CERTIFICATE-----" required withAsterisk={false} {...pem} {...form.getInputProps('certificatePem')} />
      <Textarea
        label={t('wallet.signing.fields.privateKeyPem')} placeholder="-----BEGIN PRIVATE KEY-----" description={current ? t('wallet.signing.hints.keyKept') : undefined}
        required={!current} withAsterisk={false} {...pem} {...form.getInputProps('privateKeyPem')}
      />
      <Textarea label={t('wallet.signing.fields.wwdrPem')} placeholder="-----BEGIN CERTIFICATE-----" required withAsterisk={false} {...pem} {...form.getInputProps('wwdrPem')} />
    </FormModal>
  );
}

function GoogleDialog({ current, onClose, onSaved }: { current: WalletSigning['google']; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const [keyFile, setKeyFile] = useState('');
  const form = useForm({
    initialValues: { issuerId: current?.issuerId ?? '', serviceAccountEmail: current?.serviceAccountEmail ?? '', privateKeyPem: '' },
    validate: schemaValidator(GoogleSigningInput, t, {}, (v: { privateKeyPem: string }) => ({ ...v, privateKeyPem: v.privateKeyPem.trim() || undefined })),
  });
  const readFile = (text: string) => {
    setKeyFile(text);
    const read = readServiceAccount(text);
    if (read) form.setValues({ serviceAccountEmail: read.email, privateKeyPem: read.privateKeyPem });
  };
  const submit = form.onSubmit(async (v) => {
    setFailure(null);
    try {
      await api.call('putGoogleWalletSigning', { body: { ...v, privateKeyPem: v.privateKeyPem.trim() || undefined } });
      notifySuccess(t('wallet.signing.saved'));
      onSaved();
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, ['issuerId', 'serviceAccountEmail', 'privateKeyPem'], (m) => signingIssueText(t, m));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const badFile = keyFile.trim() !== '' && readServiceAccount(keyFile) === null;
  return (
    <FormModal title={t('wallet.signing.googleTitle')} failure={failure} submitLabel={t('common.save')} submitting={form.submitting} submitTestId="google-save" onSubmit={submit} onClose={onClose}>
      <TextInput label={t('wallet.signing.fields.issuerId')} placeholder="3388000000012345678" required withAsterisk={false} classNames={{ input: 'gd-mono' }} {...form.getInputProps('issuerId')} />
      <Textarea
        label={t('wallet.signing.fields.serviceAccountJson')} description={t('wallet.signing.hints.serviceAccountJson')} placeholder='{"type": "service_account", ...}'
        value={keyFile} onChange={(e) => readFile(e.currentTarget.value)} error={badFile ? t('wallet.signing.hints.notServiceAccount') : undefined} {...pem}
      />
      <TextInput label={t('wallet.signing.fields.serviceAccountEmail')} required withAsterisk={false} {...form.getInputProps('serviceAccountEmail')} />
      <Textarea
        label={t('wallet.signing.fields.googleKey')} placeholder="-----BEGIN PRIVATE KEY-----" description={current ? t('wallet.signing.hints.googleKeyKept') : undefined}
        required={!current} withAsterisk={false} {...pem} {...form.getInputProps('privateKeyPem')}
      />
    </FormModal>
  );
}
