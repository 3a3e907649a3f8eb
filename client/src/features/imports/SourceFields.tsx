/**
 * The fields of an import's source, by type (SPEC.md section 3): file or URL for csv types, URL
 * for https, server, login and path for FTP/SFTP (port 21 by default, 22 proposed for SFTP), storage and
 * path for S3, KPI, date range and filters for a performance report, a segment for segment.
 * Passwords are write-only: an edit shows that one is stored, never the value. An SFTP server's
 * host key fingerprint: the pinned one read-only (replace, forget), or one to paste (HostKeyField).
 */
import { Button, Checkbox, FileButton, Group, Input, MultiSelect, NumberInput, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconFileUpload, IconPlus } from '@tabler/icons-react';
import { InteractionChannel } from '@gd/shared/behaviour/events';
import { AudienceIdType } from '@gd/shared/segment/audience';
import { KpiType, type S3Integration } from '@gd/shared/schemas/imports';
import type { SegmentSummary } from '@gd/shared/schemas/segments';
import { useT } from '../../i18n/useT.ts';
import { asksIdType, ftpHostKeyState, takesFile, type FormValues } from './formModel.ts';
import { HostKeyField } from '../../ui/HostKeyField.tsx';
import { formatBytes, idTypeKey } from './progress.ts';

export interface SourceFieldsProps {
  form: UseFormReturnType<FormValues>;
  file: File | null;
  onFile: (file: File | null) => void;
  /** Editing a task that has an uploaded file / a stored password. */
  hasUpload: boolean;
  hasPassword: boolean;
  integrations: readonly S3Integration[];
  onAddStorage: () => void;
  segments: readonly SegmentSummary[];
  /** The app's experience-platform integrations (the adobe type's source). */
  experiencePlatforms: readonly { id: string; name: string }[];
}

export function SourceFields(props: SourceFieldsProps) {
  const { form } = props;
  const { t } = useT();
  const type = form.values.source.type;
  const idType = asksIdType(type) && (
    <Select
      label={t('imports.fields.idType')}
      allowDeselect={false}
      data={AudienceIdType.options.map((v) => ({ value: v, label: t(`imports.idType.${idTypeKey(v)}`) }))}
      {...form.getInputProps('source.idType')}
    />
  );
  switch (type) {
    case 'csv':
    case 'csv_dynamic':
      return <Stack gap="sm">{idType}<FileFields {...props} /></Stack>;
    case 'https':
      return (
        <Stack gap="sm">
          {idType}
          <TextInput label={t('imports.fields.httpsFileUrl')} placeholder="https://files.example.com/customers.csv" required {...form.getInputProps('source.httpsFileUrl')} />
        </Stack>
      );
    case 'ftp':
      return <Stack gap="sm">{idType}<FtpFields {...props} /></Stack>;
    case 's3':
      return <Stack gap="sm">{idType}<S3Fields {...props} /></Stack>;
    case 'performance_report':
      return <ReportFields form={form} />;
    case 'segment':
      return (
        <Select
          label={t('imports.fields.segmentId')}
          required
          searchable
          nothingFoundMessage={t('imports.noSegments')}
          description={props.segments.length === 0 ? t('imports.noSegments') : undefined}
          data={props.segments.map((s) => ({ value: s.id, label: s.name }))}
          {...form.getInputProps('source.segmentId')}
        />
      );
    case 'adobe':
      return (
        <Stack gap="sm">
          <Select
            label={t('imports.fields.adobeId')}
            required
            placeholder={props.experiencePlatforms.length === 0 ? t('imports.noAdobe') : undefined}
            description={props.experiencePlatforms.length === 0 ? t('imports.noAdobe') : undefined}
            data={props.experiencePlatforms.map((i) => ({ value: i.id, label: i.name }))}
            {...form.getInputProps('source.adobeId')}
          />
          <TextInput label={t('imports.fields.adobeSegmentId')} description={t('imports.adobeSegmentHint')} required classNames={{ input: 'gd-mono' }} {...form.getInputProps('source.adobeSegmentId')} />
          {idType}
        </Stack>
      );
    default: {
      const never: never = type;
      throw new Error(`unknown import type ${String(never)}`);
    }
  }
}

function FileFields({ form, file, onFile, hasUpload }: SourceFieldsProps) {
  const { t, lang } = useT();
  if (!takesFile(form.values.source.type)) return null;
  const error = form.errors['source.csvFileURL'];
  return (
    <Stack gap={6}>
      <Input.Label>{t('imports.file.label')}</Input.Label>
      <Group gap="sm" wrap="nowrap">
        <FileButton onChange={onFile} accept=".csv,text/csv,text/plain">
          {(button) => <Button {...button} variant="light" leftSection={<IconFileUpload size={16} />} style={{ flexShrink: 0 }}>{t('imports.file.choose')}</Button>}
        </FileButton>
        <Text size="sm" c={file ? undefined : 'dimmed'} truncate="end" data-testid="import-file-name">
          {file ? t('imports.file.chosen', { name: file.name, size: formatBytes(file.size, lang) }) : hasUpload ? t('imports.file.kept') : ''}
        </Text>
      </Group>
      <TextInput
        label={t('imports.file.orUrl')}
        placeholder="https://files.example.com/customers.csv"
        disabled={!!file}
        {...form.getInputProps('source.csvFileURL')}
        error={error}
      />
      <Text size="xs" c="dimmed">{t('imports.file.hint')}</Text>
    </Stack>
  );
}

function FtpFields({ form, hasPassword }: SourceFieldsProps) {
  const { t } = useT();
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <TextInput label={t('imports.fields.ftpHost')} placeholder="files.example.com" required style={{ gridColumn: 'span 2' }} {...form.getInputProps('source.ftpHost')} />
        <NumberInput label={t('imports.fields.ftpPort')} min={1} max={65535} allowDecimal={false} required {...form.getInputProps('source.ftpPort')} />
      </SimpleGrid>
      <Checkbox
        label={t('imports.fields.isSecureFtp')}
        {...form.getInputProps('source.isSecureFtp', { type: 'checkbox' })}
        onChange={(event) => {
          const secure = event.currentTarget.checked;
          form.setFieldValue('source.isSecureFtp', secure);
          // SFTP listens on 22; the spec's default (21) is FTP's. Only an untouched default moves.
          const port = Number(form.values.source.ftpPort);
          if (secure && port === 21) form.setFieldValue('source.ftpPort', 22);
          if (!secure && port === 22) form.setFieldValue('source.ftpPort', 21);
        }}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('imports.fields.ftpUsername')} autoComplete="off" {...form.getInputProps('source.ftpUsername')} />
        <PasswordInput
          label={t('imports.fields.ftpPassword')}
          autoComplete="new-password"
          placeholder={hasPassword ? '••••••••' : undefined}
          description={hasPassword ? t('imports.passwordKept') : t('imports.passwordWriteOnly')}
          {...form.getInputProps('source.ftpPassword')}
        />
      </SimpleGrid>
      <TextInput label={t('imports.fields.ftpFileRoute')} placeholder="/exports/customers.csv" required {...form.getInputProps('source.ftpFileRoute')} />
      {form.values.source.isSecureFtp && (
        <HostKeyField
          state={ftpHostKeyState(form.values.source)}
          pinned={form.values.source.pinnedHostKey}
          input={form.getInputProps('source.ftpHostKeyFingerprint')}
          onForget={(forget) => {
            form.setFieldValue('source.forgetHostKey', forget);
            form.setFieldValue('source.ftpHostKeyFingerprint', '');
          }}
          onClearTyped={() => form.setFieldValue('source.ftpHostKeyFingerprint', '')}
        />
      )}
    </Stack>
  );
}

function S3Fields({ form, integrations, onAddStorage }: SourceFieldsProps) {
  const { t } = useT();
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <Select
          label={t('imports.fields.s3IntegrationId')}
          required
          style={{ flex: 1 }}
          placeholder={integrations.length === 0 ? t('imports.storage.none') : undefined}
          data={integrations.map((i) => ({ value: i.id, label: `${i.name} · ${i.bucket}` }))}
          {...form.getInputProps('source.s3IntegrationId')}
        />
        <Button variant="default" leftSection={<IconPlus size={16} />} onClick={onAddStorage}>{t('imports.storage.add')}</Button>
      </Group>
      <TextInput label={t('imports.fields.s3FileRoute')} placeholder="exports/customers.csv" required {...form.getInputProps('source.s3FileRoute')} />
    </Stack>
  );
}

function ReportFields({ form }: { form: UseFormReturnType<FormValues> }) {
  const { t } = useT();
  return (
    <Stack gap="sm">
      <Select
        label={t('imports.fields.kpiType')}
        allowDeselect={false}
        data={KpiType.options.map((k) => ({ value: k, label: t(`imports.kpiType.${k}`) }))}
        {...form.getInputProps('source.kpiType')}
      />
      <SimpleGrid cols={2} spacing="sm">
        <TextInput type="date" label={t('imports.fields.startDay')} required {...form.getInputProps('source.startDay')} />
        <TextInput type="date" label={t('imports.fields.endDay')} required {...form.getInputProps('source.endDay')} />
      </SimpleGrid>
      <MultiSelect
        label={t('imports.fields.channels')}
        placeholder={form.values.source.channels.length ? undefined : t('imports.anyChannel')}
        data={InteractionChannel.options.map((c) => ({ value: c, label: t(`imports.channel.${c}`) }))}
        {...form.getInputProps('source.channels')}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput label={t('imports.fields.campaignIds')} placeholder={t('imports.idsPlaceholder')} {...form.getInputProps('source.campaignIds')} />
        <TextInput label={t('imports.fields.messageIds')} placeholder={t('imports.idsPlaceholder')} {...form.getInputProps('source.messageIds')} />
      </SimpleGrid>
    </Stack>
  );
}
