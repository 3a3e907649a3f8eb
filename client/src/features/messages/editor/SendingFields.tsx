/**
 * Who receives the message and when: the target (an audience or a segment of the app, picked from
 * the app's lists like the journey inspector's pickers, or the test devices), the schedule (now, at
 * a date and time, or recurring, read in the device's local time or the person's time zone) and the
 * delivery limits (a daily cap per person, quiet hours).
 */
import { useState } from 'react';
import { Box, Group, Input, NumberInput, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { jsonEqual } from '@gd/shared/journey/json';
import { ClockTime, Frequency, LocalDateTime, ScheduleBasis, type MessageDraft, type MessageSchedule, type MessageTarget } from '@gd/shared/message/draft';
import { useSegmentOptions, type Option } from '../../../entities/segment/useSegmentOptions.ts';
import { useT } from '../../../i18n/useT.ts';
import { usePermissions } from '../../../session/permissions.ts';
import { useSession } from '../../../session/store.ts';
import { useApiQuery } from '../../../state/useApiQuery.ts';
import { Field, useForm } from './formContext.tsx';

const TARGET_KINDS = ['none', 'audience', 'segment', 'testDevices'] as const;
const SCHEDULE_KINDS = ['now', 'at', 'recurring'] as const;

/** Tomorrow at 09:00 local, as a wall-clock date-time (`2026-12-01T09:00`). */
export function tomorrowAtNine(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:00`;
}

/** The schedule of another kind, keeping the date-time and basis already chosen. */
export function scheduleOfKind(kind: MessageSchedule['kind'], current: MessageSchedule, now = new Date()): MessageSchedule {
  if (kind === current.kind) return current;
  const at = current.kind === 'at' ? current.at : current.kind === 'recurring' ? current.startsAt : tomorrowAtNine(now);
  const basis = current.kind === 'now' ? 'deviceLocal' : current.basis;
  switch (kind) {
    case 'now':
      return { kind: 'now' };
    case 'at':
      return { kind: 'at', at, basis };
    case 'recurring':
      return { kind: 'recurring', startsAt: at, basis, frequency: 'daily', endsAt: null };
  }
}

/** The held ids are always listed, also when the app lacks them (marked). */
function withHeld(items: Option[], held: string | null, notInApp: (name: string) => string): Option[] {
  if (!held || items.some((o) => o.value === held)) return items;
  return [...items, { value: held, label: notInApp(held) }];
}

function TargetPicker({ kind, id, onPick }: { kind: 'audience' | 'segment'; id: string | null; onPick: (id: string | null) => void }) {
  const { t } = useT();
  const { readOnly, errorAt } = useForm();
  const can = usePermissions('app');
  const appId = useSession((s) => s.currentAppId) ?? '';
  const options = useSegmentOptions();
  const mayList = can('ui:audience.view');
  const segments = useApiQuery('listSegments', { params: { appId }, scope: 'app', enabled: appId !== '' && kind === 'segment' && mayList });
  const items = kind === 'audience' ? options.audiences : (segments.data?.segments ?? []).map((s) => ({ value: s.id, label: s.name }));
  const label = t(kind === 'audience' ? 'messageEditor.target.audience' : 'messageEditor.target.segment');
  if (!mayList) {
    return (
      <TextInput label={label} description={t('messageEditor.target.noList')} value={id ?? ''} readOnly={readOnly} error={errorAt('target')} onChange={(e) => onPick(e.currentTarget.value.trim() || null)} />
    );
  }
  return (
    <Select
      label={label}
      placeholder={t('messageEditor.target.pick')}
      data={withHeld(items, id, (name) => t('messageEditor.target.notInApp', { name }))}
      value={id}
      searchable
      readOnly={readOnly}
      nothingFoundMessage={t('messageEditor.target.nothingFound')}
      error={errorAt('target')}
      onChange={onPick}
      comboboxProps={{ withinPortal: true }}
      data-testid={`target-${kind}`}
    />
  );
}

export function TargetField() {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt } = useForm();
  const target = draft.target;
  // An audience or segment is stored once one is picked; until then the choice of kind is local.
  const [pending, setPending] = useState<'audience' | 'segment' | null>(null);
  const kind = target.kind === 'none' && !readOnly ? (pending ?? 'none') : target.kind;
  const setTarget = (next: MessageTarget) => edit((d) => (jsonEqual(d.target, next) ? d : { ...d, target: next }));
  const heldId = target.kind === 'audience' || target.kind === 'segment' ? target.id : null;
  return (
    <Field path="target">
      <Stack gap="sm">
        <Select
          label={t('messageEditor.target.kind')}
          data={TARGET_KINDS.map((k) => ({ value: k, label: t(`messageEditor.target.kinds.${k}`) }))}
          value={kind}
          readOnly={readOnly}
          allowDeselect={false}
          error={kind === 'none' ? errorAt('target') : undefined}
          onChange={(v) => {
            const next = TARGET_KINDS.find((k) => k === v);
            if (!next || next === kind) return;
            setPending(next === 'audience' || next === 'segment' ? next : null);
            setTarget(next === 'testDevices' ? { kind: next } : { kind: 'none' });
          }}
          comboboxProps={{ withinPortal: true }}
          maw={360}
          data-testid="target-kind"
        />
        {kind === 'testDevices' && (
          <Text size="sm" c="dimmed">
            {t('messageEditor.target.testDevicesHint')}
          </Text>
        )}
        {(kind === 'audience' || kind === 'segment') && (
          <Box maw={480}>
            <TargetPicker kind={kind} id={target.kind === kind ? heldId : null} onPick={(id) => setTarget(id ? { kind, id } : { kind: 'none' })} />
          </Box>
        )}
      </Stack>
    </Field>
  );
}

export function ScheduleField() {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt } = useForm();
  const schedule = draft.schedule;
  const setSchedule = (next: MessageSchedule) => edit((d) => (jsonEqual(d.schedule, next) ? d : { ...d, schedule: next }));
  const basis = schedule.kind === 'now' ? null : (
    <Select
      label={t('messageEditor.schedule.basis')}
      data={ScheduleBasis.options.map((b) => ({ value: b, label: t(`messageEditor.schedule.bases.${b}`) }))}
      value={schedule.basis}
      readOnly={readOnly}
      allowDeselect={false}
      onChange={(v) => {
        const b = ScheduleBasis.safeParse(v);
        if (b.success) setSchedule({ ...schedule, basis: b.data });
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
  // A date-time input gives `YYYY-MM-DDTHH:mm`, the draft's wall-clock form; a cleared one is not stored.
  const dateTime = (label: string, value: string, onValue: (v: string) => void, error?: string) => (
    <TextInput type="datetime-local" label={label} value={value} readOnly={readOnly} error={error} onChange={(e) => {
      const v = e.currentTarget.value.slice(0, 16);
      if (LocalDateTime.safeParse(v).success) onValue(v);
    }} />
  );
  return (
    <Field path="schedule">
      <Stack gap="sm">
        <Input.Wrapper label={t('messageEditor.schedule.kind')} labelElement="div">
          <div>
            <SegmentedControl
              aria-label={t('messageEditor.schedule.kind')}
              data={SCHEDULE_KINDS.map((k) => ({ value: k, label: t(`messageEditor.schedule.kinds.${k}`) }))}
              value={schedule.kind}
              readOnly={readOnly}
              onChange={(v) => {
                const kind = SCHEDULE_KINDS.find((k) => k === v);
                if (kind) setSchedule(scheduleOfKind(kind, schedule));
              }}
              data-testid="schedule-kind"
            />
          </div>
        </Input.Wrapper>
        {schedule.kind === 'at' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {dateTime(t('messageEditor.schedule.at'), schedule.at, (at) => setSchedule({ ...schedule, at }))}
            {basis}
          </SimpleGrid>
        )}
        {schedule.kind === 'recurring' && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('messageEditor.schedule.frequency')}
              data={Frequency.options.map((f) => ({ value: f, label: t(`messageEditor.schedule.frequencies.${f}`) }))}
              value={schedule.frequency}
              readOnly={readOnly}
              allowDeselect={false}
              onChange={(v) => {
                const f = Frequency.safeParse(v);
                if (f.success) setSchedule({ ...schedule, frequency: f.data });
              }}
              comboboxProps={{ withinPortal: true }}
            />
            {basis}
            {dateTime(t('messageEditor.schedule.startsAt'), schedule.startsAt, (startsAt) => setSchedule({ ...schedule, startsAt }))}
            <TextInput
              type="datetime-local"
              label={t('messageEditor.schedule.endsAt')}
              description={t('messageEditor.schedule.endsAtHint')}
              inputWrapperOrder={['label', 'input', 'error', 'description']}
              value={schedule.endsAt ?? ''}
              readOnly={readOnly}
              error={errorAt('schedule.endsAt')}
              onChange={(e) => {
                const v = e.currentTarget.value.slice(0, 16);
                if (v === '') setSchedule({ ...schedule, endsAt: null });
                else if (LocalDateTime.safeParse(v).success) setSchedule({ ...schedule, endsAt: v });
              }}
            />
          </SimpleGrid>
        )}
      </Stack>
    </Field>
  );
}

const DEFAULT_QUIET = { from: '22:00', to: '08:00' };

export function DeliveryField() {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt } = useForm();
  const delivery = draft.delivery;
  const setDelivery = (next: MessageDraft['delivery']) => edit((d) => (jsonEqual(d.delivery, next) ? d : { ...d, delivery: next }));
  const quiet = delivery.quietHours;
  const time = (label: string, value: string, onValue: (v: string) => void) => (
    <TextInput type="time" label={label} value={value} readOnly={readOnly} w={160} onChange={(e) => {
      const v = e.currentTarget.value.slice(0, 5);
      if (ClockTime.safeParse(v).success) onValue(v);
    }} />
  );
  return (
    <Field path="delivery">
      <Stack gap="md">
        <NumberInput
          label={t('messageEditor.delivery.frequencyCap')}
          description={t('messageEditor.delivery.frequencyCapHint')}
          value={delivery.frequencyCap ?? ''}
          readOnly={readOnly}
          min={1}
          max={100}
          allowDecimal={false}
          allowNegative={false}
          maw={480}
          error={errorAt('delivery.frequencyCap')}
          onChange={(v) => setDelivery({ ...delivery, frequencyCap: typeof v === 'number' ? Math.min(100, Math.max(1, Math.round(v))) : null })}
        />
        <Stack gap="xs">
          <Switch
            label={t('messageEditor.delivery.quietHours')}
            description={t('messageEditor.delivery.quietHoursHint')}
            checked={quiet !== null}
            disabled={readOnly}
            onChange={(e) => setDelivery({ ...delivery, quietHours: e.currentTarget.checked ? (quiet ?? DEFAULT_QUIET) : null })}
          />
          {quiet && (
            <Group gap="sm" align="flex-start">
              {time(t('messageEditor.delivery.quietFrom'), quiet.from, (from) => setDelivery({ ...delivery, quietHours: { ...quiet, from } }))}
              {time(t('messageEditor.delivery.quietTo'), quiet.to, (to) => setDelivery({ ...delivery, quietHours: { ...quiet, to } }))}
            </Group>
          )}
          {errorAt('delivery.quietHours') && (
            <Text size="xs" c="red.7">
              {errorAt('delivery.quietHours')}
            </Text>
          )}
        </Stack>
      </Stack>
    </Field>
  );
}
