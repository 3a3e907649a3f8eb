/**
 * The variants of an A/B test as tabs: each with its label, its share of the audience (the total
 * shown, red until it is 100%) and its content type; variants added up to MAX_AB_VARIANTS and
 * removed down to two. `children` is the selected variant's content (languages and fields).
 */
import type { ReactNode } from 'react';
import { ActionIcon, Box, Button, Group, NumberInput, Select, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_AB_VARIANTS, variantTypes, type MessageVariant } from '@gd/shared/message/draft';
import { AB_TEST_LIMITS, AbMetric, DEFAULT_AB_METRIC } from '@gd/shared/message/abTest';
import { CommunicationType } from '@gd/shared/message/model';
import { useT } from '../../../i18n/useT.ts';
import { addVariant, evenVariantShares, removeVariant, setVariantType, updateVariant, variantTypeOf } from './draftEdits.ts';
import { Field, useForm } from './formContext.tsx';
import { wholeNumber } from './wholeNumber.ts';
import { anyUnder } from './problems.ts';

const MIN_AB_VARIANTS = 2;

/** A dot on a tab: red for problems inside, yellow for review changes. */
export function TabMarks({ problems, changed }: { problems: number; changed: boolean }) {
  return (
    <>
      {changed && <Box component="span" w={7} h={7} bg="yellow.6" style={{ borderRadius: '50%', display: 'inline-block' }} data-testid="tab-changed" aria-hidden />}
      {problems > 0 && <Box component="span" w={7} h={7} bg="red.6" style={{ borderRadius: '50%', display: 'inline-block' }} data-testid="tab-problems" aria-hidden />}
    </>
  );
}

export function VariantTabs({ selected, onSelect, children }: { selected: MessageVariant; onSelect: (id: string) => void; children: ReactNode }) {
  const { t } = useT();
  const { draft, readOnly, edit, errorAt, problemsUnder, changedPaths } = useForm();
  const sum = draft.variants.reduce((total, v) => total + v.share, 0);
  const canAdd = draft.variants.length < MAX_AB_VARIANTS;
  const canRemove = draft.variants.length > MIN_AB_VARIANTS;
  const label = (v: MessageVariant) => t('messageEditor.variants.variant', { name: v.name || v.id });
  const path = (field: string) => `variants.${selected.id}.${field}`;
  const variantsError = errorAt('variants');

  const onAdd = () => {
    const next = addVariant(draft);
    edit(() => next);
    const added = next.variants[next.variants.length - 1];
    if (added && added.id !== draft.variants[draft.variants.length - 1]?.id) onSelect(added.id);
  };

  return (
    <>
      {/* The A/B test's settings (shared message/abTest.ts), one for the whole test, above the variants:
          the test portion (the rest waits for the winner) and the metric the winner is decided on. */}
      <Field path="abTest">
        <Group align="flex-start" gap="md" wrap="wrap" mb="md" data-testid="ab-test-settings">
          <NumberInput
            label={t('abAnalysis.editor.testPercent')}
            description={t('abAnalysis.editor.testPercentHint')}
            value={draft.abTest.testPercent}
            readOnly={readOnly}
            min={AB_TEST_LIMITS.minTestPercent}
            max={AB_TEST_LIMITS.maxTestPercent}
            allowDecimal={false}
            allowNegative={false}
            suffix="%"
            style={{ flex: '1 1 260px' }}
            maw={420}
            clampBehavior="blur"
            error={errorAt('abTest.testPercent')}
            data-testid="ab-test-percent"
            onChange={(v) => {
              // What is typed, unclamped (typing "25" passes 2): validation shows a value out of range.
              const testPercent = wholeNumber(v);
              if (testPercent === null) return;
              edit((d) => (d.abTest.testPercent === testPercent ? d : { ...d, abTest: { ...d.abTest, testPercent } }));
            }}
          />
          <Select
            label={t('abAnalysis.editor.primaryMetric')}
            description={t('abAnalysis.editor.primaryMetricHint')}
            data={AbMetric.options.map((m) => ({ value: m, label: t(`abAnalysis.metrics.${m}`) }))}
            value={draft.abTest.primaryMetric ?? DEFAULT_AB_METRIC}
            readOnly={readOnly}
            allowDeselect={false}
            style={{ flex: '1 1 220px' }}
            maw={320}
            comboboxProps={{ withinPortal: true }}
            data-testid="ab-primary-metric"
            onChange={(v) => {
              const metric = AbMetric.safeParse(v);
              if (metric.success) edit((d) => ((d.abTest.primaryMetric ?? DEFAULT_AB_METRIC) === metric.data ? d : { ...d, abTest: { ...d.abTest, primaryMetric: metric.data } }));
            }}
          />
        </Group>
      </Field>
    <Tabs value={selected.id} onChange={(v) => v && onSelect(v)} keepMounted={false} variant="outline" data-testid="variant-tabs">
      <Group gap={0} wrap="nowrap" align="flex-end">
        <Tabs.List aria-label={t('messageEditor.variants.label')} style={{ flex: 1 }}>
          {draft.variants.map((v) => (
            <Tabs.Tab key={v.id} value={v.id} rightSection={<TabMarks problems={problemsUnder(`variants.${v.id}`).length} changed={anyUnder(changedPaths, `variants.${v.id}`)} />}>
              {label(v)}
              <Text span size="xs" c="dimmed" ml={6}>
                {v.share}%
              </Text>
            </Tabs.Tab>
          ))}
          {!readOnly && (
            <Tooltip label={canAdd ? t('messageEditor.variants.add') : t('messageEditor.variants.addLimit', { max: MAX_AB_VARIANTS })} withArrow>
              <ActionIcon variant="subtle" size="lg" ml={4} mb={2} aria-label={t('messageEditor.variants.add')} disabled={!canAdd} onClick={onAdd} data-testid="add-variant">
                <IconPlus size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Tabs.List>
      </Group>
      <Tabs.Panel value={selected.id} pt="md">
        <Group align="flex-end" gap="sm" wrap="wrap" mb="sm">
          <Box style={{ flex: '1 1 160px' }}>
            <Field path={path('name')}>
              <TextInput
                label={t('messageEditor.variants.name')}
                value={selected.name}
                readOnly={readOnly}
                maxLength={120}
                onChange={(e) => {
                  const name = e.currentTarget.value;
                  edit((d) => updateVariant(d, selected.id, (v) => (v.name === name ? v : { ...v, name })));
                }}
              />
            </Field>
          </Box>
          <Box style={{ flex: '0 1 170px' }}>
            <Field path={path('share')}>
              <NumberInput
                label={t('messageEditor.variants.share')}
                value={selected.share}
                readOnly={readOnly}
                min={0}
                max={100}
                allowDecimal={false}
                allowNegative={false}
                suffix="%"
                onChange={(v) => {
                  const share = typeof v === 'number' ? Math.min(100, Math.max(0, Math.round(v))) : 0;
                  edit((d) => updateVariant(d, selected.id, (x) => (x.share === share ? x : { ...x, share })));
                }}
              />
            </Field>
          </Box>
          <Box style={{ flex: '1 1 180px' }}>
            <Select
              label={t('messageEditor.field.variantType')}
              data={variantTypes().map((type) => ({ value: type, label: t(`messages.type.${type}`) }))}
              value={variantTypeOf(draft, selected)}
              readOnly={readOnly}
              allowDeselect={false}
              onChange={(v) => {
                const type = CommunicationType.safeParse(v);
                if (type.success) edit((d) => setVariantType(d, selected.id, type.data));
              }}
              comboboxProps={{ withinPortal: true }}
              data-testid="variant-type"
            />
          </Box>
          {!readOnly && (
            <Tooltip label={canRemove ? t('messageEditor.variants.remove', { name: selected.name || selected.id }) : t('messageEditor.variants.removeLimit')} withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                mb={2}
                aria-label={t('messageEditor.variants.remove', { name: selected.name || selected.id })}
                disabled={!canRemove}
                onClick={() => {
                  const index = draft.variants.findIndex((v) => v.id === selected.id);
                  edit((d) => removeVariant(d, selected.id));
                  const neighbour = draft.variants[index === 0 ? 1 : index - 1];
                  if (neighbour) onSelect(neighbour.id);
                }}
                data-testid="remove-variant"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <Field path="variants" exact>
          <Group gap="sm" mb="md" wrap="wrap">
            <Text size="sm" c={sum === 100 ? 'dimmed' : 'red.7'} fw={sum === 100 ? undefined : 600} data-testid="share-sum">
              {t('messageEditor.variants.sum', { sum })}
            </Text>
            {!readOnly && sum !== 100 && (
              <Button variant="subtle" size="compact-xs" onClick={() => edit(evenVariantShares)}>
                {t('messageEditor.variants.even')}
              </Button>
            )}
          </Group>
          {variantsError && (
            <Text size="xs" c="red.7" mt={-8} mb="sm">
              {variantsError}
            </Text>
          )}
        </Field>
        {children}
      </Tabs.Panel>
    </Tabs>
    </>
  );
}
