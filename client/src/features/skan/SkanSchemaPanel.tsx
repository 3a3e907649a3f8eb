/**
 * The conversion-value schema editor: what each fine value (0..63, first window only) and each
 * coarse value (low, medium, high) of each of the three windows stands for: events (comma
 * separated) and a revenue range (an empty bound is open). Checked with the shared schema before
 * it is sent; saved whole.
 */
import { useState } from 'react';
import { Button, Group, NumberInput, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { MetaApp } from '@gd/shared/schemas/account';
import { SKAN_FINE_MAX, SKAN_WINDOW_DAYS, SkanCoarse, type SkanConversionSchema, type SkanWindow } from '@gd/shared/acquisition/skan';
import type { SkanSettings } from '@gd/shared/schemas/skan';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { useApiQuery } from '../../state/useApiQuery.ts';
import { DataState } from '../../ui/DataState.tsx';
import { FormError } from '../../ui/FormError.tsx';
import { GatedButton, GatedIcon } from '../../ui/Gated.tsx';
import { notifySuccess } from '../../ui/notify.ts';
import { parseBound, splitEvents } from './skanView.ts';

interface Meaning { events: string; min: string; max: string }
const NO_MEANING: Meaning = { events: '', min: '', max: '' };
interface FineRow extends Meaning { key: number; value: number | '' }
interface Draft { currency: string; fine: FineRow[]; coarse: Record<string, Meaning> }

const WINDOWS: SkanWindow[] = [0, 1, 2];
const bound = (x: number | null) => (x === null ? '' : String(x));
const meaning = (m: { events: string[]; revenueMin: number | null; revenueMax: number | null } | undefined): Meaning =>
  ({ events: m?.events.join(', ') ?? '', min: bound(m?.revenueMin ?? null), max: bound(m?.revenueMax ?? null) });

function draftOf(schema: SkanConversionSchema): Draft {
  const coarse: Record<string, Meaning> = {};
  for (const w of WINDOWS) for (const v of SkanCoarse.options) coarse[`${w}:${v}`] = meaning(schema.coarse.find((r) => r.window === w && r.value === v));
  return { currency: schema.currency, fine: schema.fine.map((r, i) => ({ key: i, value: r.value, ...meaning(r) })), coarse };
}

/** The draft as the API's input; a bound that is not a number is sent as text so the shared schema names it. */
function inputOf(d: Draft): unknown {
  const m = (x: Meaning) => ({ events: splitEvents(x.events), revenueMin: parseBound(x.min) ?? x.min, revenueMax: parseBound(x.max) ?? x.max });
  return {
    currency: d.currency.trim().toUpperCase(),
    fine: d.fine.map((r) => ({ value: r.value === '' ? -1 : r.value, ...m(r) })),
    coarse: Object.entries(d.coarse).filter(([, x]) => x.events.trim() || x.min.trim() || x.max.trim()).map(([key, x]) => {
      const [w, v] = key.split(':');
      return { window: Number(w), value: v, ...m(x) };
    }),
  };
}

export function SkanSchemaPanel({ app }: { app: MetaApp }) {
  const settings = useApiQuery('skanSettings', { params: { appId: app.id }, scope: 'app' });
  return <DataState query={settings} rows={6}>{({ settings: s }) => <Editor key={s.updatedAt ?? 'new'} app={app} settings={s} onSaved={settings.refetch} />}</DataState>;
}

function Editor({ app, settings, onSaved }: { app: MetaApp; settings: SkanSettings; onSaved: () => void }) {
  const { t } = useT();
  const can = usePermissions('app');
  const canEdit = can('ui:apptracker.edit');
  const [draft, setDraft] = useState<Draft>(() => draftOf(settings.schema));
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const setFine = (key: number, patch: Partial<FineRow>) => setDraft((d) => ({ ...d, fine: d.fine.map((r) => (r.key === key ? { ...r, ...patch } : r)) }));
  const setCoarse = (key: string, patch: Partial<Meaning>) => setDraft((d) => ({ ...d, coarse: { ...d.coarse, [key]: { ...(d.coarse[key] ?? NO_MEANING), ...patch } } }));
  const addFine = () => setDraft((d) => {
    const used = new Set(d.fine.map((r) => r.value));
    const next = Array.from({ length: SKAN_FINE_MAX + 1 }, (_, i) => i).find((i) => !used.has(i));
    return { ...d, fine: [...d.fine, { key: Math.max(-1, ...d.fine.map((r) => r.key)) + 1, value: next ?? '', events: '', min: '', max: '' }] };
  });
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await api.call('updateSkanSchema', { params: { appId: app.id }, body: inputOf(draft) as SkanConversionSchema });
      notifySuccess(t('common.saved'));
      onSaved();
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };
  const cells = (m: Meaning, set: (patch: Partial<Meaning>) => void, label: string) => (
    <>
      <Table.Td><TextInput size="xs" aria-label={`${label}: ${t('skan.events')}`} placeholder={t('skan.eventsPlaceholder')} value={m.events} disabled={!canEdit} onChange={(e) => set({ events: e.currentTarget.value })} /></Table.Td>
      <Table.Td w={120}><TextInput size="xs" aria-label={`${label}: ${t('skan.revenueMin')}`} value={m.min} disabled={!canEdit} onChange={(e) => set({ min: e.currentTarget.value })} /></Table.Td>
      <Table.Td w={120}><TextInput size="xs" aria-label={`${label}: ${t('skan.revenueMax')}`} placeholder={t('skan.open')} value={m.max} disabled={!canEdit} onChange={(e) => set({ max: e.currentTarget.value })} /></Table.Td>
    </>
  );
  const meaningHead = (
    <>
      <Table.Th>{t('skan.events')}</Table.Th>
      <Table.Th>{t('skan.revenueMin')}</Table.Th>
      <Table.Th>{t('skan.revenueMax')}</Table.Th>
    </>
  );
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput label={t('skan.currency')} w={140} value={draft.currency} disabled={!canEdit} onChange={(e) => { const currency = e.currentTarget.value; setDraft((d) => ({ ...d, currency })); }} />
        <GatedButton allowed={canEdit} loading={saving} onClick={() => void save()} data-testid="skan-schema-save">{t('common.save')}</GatedButton>
      </Group>
      <FormError error={error} />
      <Paper withBorder p="md">
        <Group justify="space-between" mb="xs">
          <div>
            <Title order={3} size="h5">{t('skan.fineTitle')}</Title>
            <Text size="xs" c="dimmed">{t('skan.fineHint')}</Text>
          </div>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={!canEdit || draft.fine.length > SKAN_FINE_MAX} onClick={addFine} data-testid="skan-add-fine">{t('skan.addFine')}</Button>
        </Group>
        {draft.fine.length === 0 ? <Text size="sm" c="dimmed" py="sm">{t('skan.noFine')}</Text> : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing={6}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={110}>{t('skan.fineValue')}</Table.Th>
                  {meaningHead}
                  <Table.Th w={50} />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {draft.fine.map((r) => (
                  <Table.Tr key={r.key} data-testid="skan-fine-row">
                    <Table.Td><NumberInput size="xs" aria-label={t('skan.fineValue')} min={0} max={SKAN_FINE_MAX} allowDecimal={false} value={r.value} disabled={!canEdit} onChange={(v) => setFine(r.key, { value: typeof v === 'number' ? v : '' })} /></Table.Td>
                    {cells(r, (patch) => setFine(r.key, patch), t('skan.fine', { value: r.value }))}
                    <Table.Td>
                      <GatedIcon allowed={canEdit} label={t('common.delete')} variant="subtle" color="gray" onClick={() => setDraft((d) => ({ ...d, fine: d.fine.filter((x) => x.key !== r.key) }))}>
                        <IconTrash size={16} />
                      </GatedIcon>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <Paper withBorder p="md">
        <Title order={3} size="h5">{t('skan.coarseTitle')}</Title>
        <Text size="xs" c="dimmed" mb="xs">{t('skan.coarseHint')}</Text>
        <SimpleGrid cols={1} spacing="md">
          {WINDOWS.map((w) => (
            <div key={w}>
              <Text size="sm" fw={600} mb={4}>{t('skan.windowN', { n: w + 1, from: SKAN_WINDOW_DAYS[w][0], to: SKAN_WINDOW_DAYS[w][1] })}</Text>
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing={6}>
                  <Table.Thead><Table.Tr><Table.Th w={110}>{t('skan.coarse')}</Table.Th>{meaningHead}</Table.Tr></Table.Thead>
                  <Table.Tbody>
                    {SkanCoarse.options.map((v) => (
                      <Table.Tr key={v}>
                        <Table.Td><Text size="sm">{t(`skan.coarseValue.${v}`)}</Text></Table.Td>
                        {cells(draft.coarse[`${w}:${v}`] ?? NO_MEANING, (patch) => setCoarse(`${w}:${v}`, patch), `${t('skan.windowShort', { n: w + 1 })} ${t(`skan.coarseValue.${v}`)}`)}
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </div>
          ))}
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}
