/**
 * Create or edit a scheduled report: what it runs (explore with its event, metric, breakdown and
 * grouping, the communication report, or the acquisition activity by source),
 * the relative days, the schedule in the app's time zone, the format and where it goes (e-mail
 * through a mail provider, or an SFTP server, whose host key fingerprint is shown pinned, or can be
 * forgotten, replaced or pasted in advance). Validation is the shared ReportInput (reportForm.ts);
 * the server's field refusals land on their fields.
 */
import { useState } from 'react';
import {
  Autocomplete, Button, Checkbox, Divider, Group, Input, Modal, NumberInput, PasswordInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, TagsInput, Text,
  TextInput, Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { ExploreBreakdown, ExploreMetric } from '@gd/shared/schemas/behaviour';
import { TimeGroup } from '@gd/shared/enums';
import { ReportFrequency, ReportKind, ReportRange, type Report } from '@gd/shared/schemas/reports';
import { api } from '../../api/client.ts';
import type { TKey } from '../../i18n/keys.ts';
import { useT } from '../../i18n/useT.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { FormError } from '../../ui/FormError.tsx';
import { splitFailure } from '../../ui/forms.ts';
import { useRevealProblems } from '../../ui/revealProblems.ts';
import { HostKeyField } from '../../ui/HostKeyField.tsx';
import { FORM_KINDS, QUERY_TEMPLATES, initialReportValues, reportBody, reportIssueText, targetHostKeyState, validateReportForm, type ReportFormValues } from './reportForm.ts';

const FIELDS = [
  'name', 'kind', 'queryJson', 'query.event', 'query.property', 'range', 'schedule.minute', 'schedule.hour', 'schedule.weekday', 'schedule.monthDay', 'format',
  'target.mailProviderId', 'target.recipients', 'target.host', 'target.port', 'target.username', 'target.password', 'target.privateKey', 'target.path',
  'target.hostKeyFingerprint',
];
const pad = (n: number) => String(n).padStart(2, '0');
const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: `${pad(h)}:00` }));

export function ReportDialog({ appId, timeZone, report, preset, canSeeProviders, onClose, onSaved }: {
  appId: string;
  timeZone: string;
  report?: Report | undefined;
  /** A new report's kind and query handed over by another screen (reportForm valuesFromUrl). */
  preset?: Partial<ReportFormValues> | undefined;
  canSeeProviders: boolean;
  onClose: () => void;
  onSaved: (report: Report) => void;
}) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<ReportFormValues>({ initialValues: { ...initialReportValues(report), ...(report ? {} : preset) }, validate: (values) => validateReportForm(values, t) });
  const events = useApiQuery('listEvents', { params: { appId }, scope: 'app', range: true, query: { people: false } });
  const providers = useApiQuery('listMailProviders', { enabled: canSeeProviders });
  const v = form.values;
  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    const body = reportBody(values) as never;
    try {
      const saved = report
        ? await api.call('updateReport', { params: { appId, reportId: report.id }, body })
        : await api.call('createReport', { params: { appId }, body });
      onSaved(saved.report);
    } catch (error) {
      const { fieldErrors, formError } = splitFailure(error, t, FIELDS, (m) => reportIssueText(t, m));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });
  const [formRef, submitAndReveal] = useRevealProblems(submit, form.submitting);
  const sched = v.schedule;
  const minutes = Array.from({ length: sched.frequency === 'half_hour' ? 30 : 60 }, (_, m) => ({ value: String(m), label: pad(m) }));
  const num = (path: string) => ({
    ...form.getInputProps(path),
    value: String(form.getInputProps(path).value),
    onChange: (value: string | null) => form.setFieldValue(path as never, Number(value ?? 0)),
  });

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{report ? t('reports.editTitle') : t('reports.addTitle')}</Text>} size="lg">
      <form ref={formRef} onSubmit={submitAndReveal} noValidate data-testid="report-form">
        <Stack gap="md">
          <FormError error={failure} />
          <TextInput label={t('reports.fields.name')} required data-autofocus data-testid="report-name" {...form.getInputProps('name')} />
          <Select
            label={t('reports.fields.kind')}
            allowDeselect={false}
            data-testid="report-kind"
            data={ReportKind.options.map((kind) => ({
              value: kind,
              label: FORM_KINDS.includes(kind) ? t(`reports.kind.${kind}`) : t('reports.kindSoon', { kind: t(`reports.kind.${kind}`) }),
              disabled: !FORM_KINDS.includes(kind) && kind !== report?.kind,
            }))}
            {...form.getInputProps('kind')}
            onChange={(value: string | null) => {
              if (!value) return;
              const kind = ReportKind.parse(value);
              form.setFieldValue('kind', kind);
              if (!v.queryJson && QUERY_TEMPLATES[kind]) form.setFieldValue('queryJson', JSON.stringify(QUERY_TEMPLATES[kind], null, 2));
            }}
          />
          {(v.kind === 'funnel' || v.kind === 'cohort') && (
            <Textarea
              label={t('reports.fields.query')}
              description={t('reports.fields.queryHint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              autosize
              minRows={4}
              maxRows={12}
              styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }}
              data-testid="report-query-json"
              {...form.getInputProps('queryJson')}
            />
          )}
          {v.kind === 'explore' && (
            <>
              <SimpleGrid cols={2}>
                <Autocomplete
                  label={t('reports.fields.event')}
                  required
                  data-testid="report-event"
                  data={[...new Set((events.data?.events ?? []).map((e) => e.name))]}
                  {...form.getInputProps('query.event')}
                />
                <Select
                  label={t('reports.fields.metric')}
                  allowDeselect={false}
                  data={ExploreMetric.options.map((m) => ({ value: m, label: t(`reports.metric.${m}`) }))}
                  {...form.getInputProps('query.metric')}
                />
                <Select
                  label={t('reports.fields.breakdown')}
                  allowDeselect={false}
                  data={[{ value: '', label: t('reports.fields.breakdownNone') }, ...ExploreBreakdown.options.map((b) => ({ value: b, label: t(`reports.breakdown.${b}`) }))]}
                  {...form.getInputProps('query.breakdown')}
                />
                {v.query.breakdown === 'property'
                  ? <TextInput label={t('reports.fields.property')} required {...form.getInputProps('query.property')} />
                  : (
                      <Select
                        label={t('reports.fields.timeGroup')}
                        allowDeselect={false}
                        data={TimeGroup.options.map((g) => ({ value: g, label: t(`reports.timeGroup.${g}`) }))}
                        {...form.getInputProps('query.timeGroup')}
                      />
                    )}
              </SimpleGrid>
              <Checkbox label={t('reports.fields.compare')} {...form.getInputProps('query.compare', { type: 'checkbox' })} />
            </>
          )}
          {v.kind === 'communication' && <Text size="sm" c="dimmed">{t('reports.fields.communicationHint')}</Text>}
          {v.kind === 'acquisition' && <Text size="sm" c="dimmed">{t('reports.fields.acquisitionHint')}</Text>}
          <Select
            label={t('reports.fields.range')}
            description={t('reports.fields.rangeHint', { zone: timeZone })}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            allowDeselect={false}
            data={ReportRange.options.map((r) => ({ value: r, label: t(`reports.range.${r}`) }))}
            {...form.getInputProps('range')}
          />
          <Divider />
          <Stack gap={6}>
            <Input.Label>{t('reports.fields.frequency')}</Input.Label>
            <SegmentedControl
              data-testid="report-frequency"
              data={ReportFrequency.options.map((f) => ({ value: f, label: t(`reports.frequency.${f}`) }))}
              value={sched.frequency}
              onChange={(value) => {
                const frequency = ReportFrequency.parse(value);
                form.setFieldValue('schedule.frequency', frequency);
                if (frequency === 'half_hour' && sched.minute >= 30) form.setFieldValue('schedule.minute', sched.minute - 30);
              }}
            />
          </Stack>
          <Group grow align="flex-start">
            {sched.frequency === 'weekly' && (
              <Select label={t('reports.fields.weekday')} allowDeselect={false} data={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: String(d), label: t(`reports.weekday.${d}` as TKey) }))} {...num('schedule.weekday')} />
            )}
            {sched.frequency === 'monthly' && (
              <Select
                label={t('reports.fields.monthDay')}
                description={t('reports.fields.monthDayHint')}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                allowDeselect={false}
                data={Array.from({ length: 31 }, (_, d) => ({ value: String(d + 1), label: String(d + 1) }))}
                {...num('schedule.monthDay')}
              />
            )}
            {(sched.frequency === 'daily' || sched.frequency === 'weekly' || sched.frequency === 'monthly') && (
              <Select label={t('reports.fields.hour')} allowDeselect={false} data={HOURS} {...num('schedule.hour')} />
            )}
            <Select label={t('reports.fields.minute')} allowDeselect={false} data={minutes} data-testid="report-minute" {...num('schedule.minute')} />
          </Group>
          <Text size="xs" c="dimmed">{t('reports.inZone', { zone: timeZone })}</Text>
          <Stack gap={6}>
            <Input.Label>{t('reports.fields.format')}</Input.Label>
            <SegmentedControl w={200} data={[{ value: 'csv', label: 'CSV' }, { value: 'zip', label: 'ZIP' }]} value={v.format} onChange={(value) => form.setFieldValue('format', value === 'zip' ? 'zip' : 'csv')} />
            <Text size="xs" c="dimmed">{t('reports.fields.formatHint')}</Text>
          </Stack>
          <Divider />
          <Stack gap={6}>
            <Input.Label>{t('reports.fields.target')}</Input.Label>
            <SegmentedControl
              w={280}
              data-testid="report-target-type"
              data={[{ value: 'email', label: t('reports.fields.email') }, { value: 'sftp', label: t('reports.fields.sftp') }]}
              value={v.target.type}
              onChange={(value) => form.setFieldValue('target.type', value === 'sftp' ? 'sftp' : 'email')}
            />
          </Stack>
          {v.target.type === 'email'
            ? (
                <>
                  <Select
                    label={t('reports.fields.mailProvider')}
                    allowDeselect={false}
                    data={[{ value: '', label: t('reports.fields.mailProviderActive') }, ...(providers.data?.providers ?? []).map((p) => ({ value: p.id, label: p.name }))]}
                    {...form.getInputProps('target.mailProviderId')}
                    onChange={(value: string | null) => form.setFieldValue('target.mailProviderId', value ?? '')}
                  />
                  <TagsInput
                    label={t('reports.fields.recipients')}
                    description={t('reports.fields.recipientsHint')}
                    inputWrapperOrder={['label', 'input', 'description', 'error']}
                    required
                    data-testid="report-recipients"
                    splitChars={[',', ' ', ';']}
                    {...form.getInputProps('target.recipients')}
                  />
                </>
              )
            : (
                <>
                  <SimpleGrid cols={2}>
                    <TextInput label={t('reports.fields.host')} required {...form.getInputProps('target.host')} />
                    <NumberInput label={t('reports.fields.port')} min={1} max={65535} allowDecimal={false} {...form.getInputProps('target.port')} />
                    <TextInput label={t('reports.fields.username')} required {...form.getInputProps('target.username')} />
                    <TextInput label={t('reports.fields.path')} {...form.getInputProps('target.path')} />
                  </SimpleGrid>
                  <PasswordInput
                    label={t('reports.fields.password')}
                    autoComplete="new-password"
                    description={report?.target.type === 'sftp' ? t('reports.fields.passwordKept') : undefined}
                    {...form.getInputProps('target.password')}
                  />
                  <Textarea label={t('reports.fields.privateKey')} autosize minRows={2} maxRows={6} styles={{ input: { fontFamily: 'monospace', fontSize: 12 } }} {...form.getInputProps('target.privateKey')} />
                  <HostKeyField
                    state={targetHostKeyState(v.target)}
                    pinned={v.target.pinnedHostKey}
                    input={form.getInputProps('target.hostKeyFingerprint')}
                    onForget={(forget) => {
                      form.setFieldValue('target.forgetHostKey', forget);
                      form.setFieldValue('target.hostKeyFingerprint', '');
                    }}
                    onClearTyped={() => form.setFieldValue('target.hostKeyFingerprint', '')}
                  />
                </>
              )}
          <Switch label={t('reports.fields.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="submit" loading={form.submitting} data-testid="report-save">{report ? t('common.save') : t('reports.add')}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
