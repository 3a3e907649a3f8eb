/**
 * One condition: filter kind → field (attribute, event, tag, …) → condition (only the operators
 * the field's input kinds allow, grouped by input kind) → its value, and for windowed fields an
 * optional "in the last N days". The fields wrap onto a second line on narrow screens. Problems
 * (SPEC.md section 5 and what the condition means) show under the row as they arise; someone
 * else working on the row is shown by their colour and name.
 */
import { ActionIcon, Badge, Box, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { SegmentFilterKind, SegmentOperator, type SegmentCondition } from '@gd/shared/segment/model';
import { useT } from '../../i18n/useT.ts';
import type { Peer } from '../../sync/presence.ts';
import { conditionWidgets, operatorGroups, patchOperator, patchTagCondition, patchType, tagConditionGroups, type OperatorGroup } from './conditionShape.ts';
import { FieldPicker } from './FieldPicker.tsx';
import type { RowProblem } from './problems.ts';
import type { SegmentOptions } from './useSegmentOptions.ts';
import { DaysInput, ValueInput } from './ValueInput.tsx';

export interface ConditionRowProps {
  nodeKey: string;
  index: number;
  c: SegmentCondition;
  problems: readonly RowProblem[];
  readOnly: boolean;
  options: SegmentOptions;
  /** Other people working on this row now. */
  peers: readonly Peer[];
  onChange: (patch: Partial<SegmentCondition>) => void;
  /** Without it the row has no remove button (a journey step's one condition). */
  onRemove?: () => void;
  onFocusChange?: (focused: boolean) => void;
}

export function ConditionRow({ nodeKey, index, c, problems, readOnly, options, peers, onChange, onRemove, onFocusChange }: ConditionRowProps) {
  const { t } = useT();
  const label = t('segments.editor.conditionLabel', { index });
  const { tagType } = options;
  const groups = operatorGroups(c.type, c.id, tagType);
  const widgets = conditionWidgets(c, tagType);
  const tagGroups = c.condition === 'with_property' ? tagConditionGroups(c.type, c.id, tagType) : [];
  const has = (field: keyof SegmentCondition) => problems.some((p) => p.field === field);
  const peer = peers[0];

  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="segment-condition"
      data-key={nodeKey}
      data-problems={problems.length}
      role="group"
      aria-label={label}
      style={peer ? { borderColor: peer.color, boxShadow: `0 0 0 1px ${peer.color}` } : undefined}
      onFocusCapture={() => onFocusChange?.(true)}
      onBlurCapture={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) onFocusChange?.(false);
      }}
    >
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="wrap" align="flex-start" style={{ flex: 1, minWidth: 0 }}>
            <Select
              size="sm"
              w={200}
              aria-label={`${label}: ${t('segments.field.filterKind')}`}
              placeholder={t('segments.field.filterKind')}
              data={SegmentFilterKind.options.map((k) => ({ value: k, label: t(`segments.filterKind.${k}`) }))}
              value={c.type}
              readOnly={readOnly}
              error={has('type')}
              allowDeselect={false}
              onChange={(v) => {
                const kind = SegmentFilterKind.safeParse(v);
                if (kind.success && kind.data !== c.type) onChange(patchType(kind.data));
              }}
              comboboxProps={{ withinPortal: true }}
              data-testid="condition-kind"
            />
            <FieldPicker c={c} label={label} readOnly={readOnly} error={has('id')} options={options} onChange={onChange} />
            <OperatorSelect
              label={`${label}: ${t('segments.field.operator')}`}
              groups={groups}
              value={c.condition}
              readOnly={readOnly}
              error={has('condition')}
              disabled={groups.length === 0}
              onChange={(op) => onChange(patchOperator(c, op, tagType))}
              testId="condition-operator"
            />
            {c.condition === 'with_property' && (
              <OperatorSelect
                label={`${label}: ${t('segments.field.tagCondition')}`}
                groups={tagGroups}
                value={c.tagCondition}
                readOnly={readOnly}
                error={has('tagCondition')}
                disabled={tagGroups.length === 0}
                onChange={(op) => onChange(patchTagCondition(c, op, tagType))}
                testId="condition-tag-operator"
              />
            )}
            {widgets.widget && (
              <ValueInput
                widget={widgets.widget === 'property' ? (widgets.inner ?? 'none') : widgets.widget}
                c={c}
                readOnly={readOnly}
                error={has('input') || has('dateRange') || (has('dateDays') && !widgets.window)}
                label={label}
                audiences={options.audiences}
                journeys={options.journeys}
                tagType={tagType}
                onChange={onChange}
              />
            )}
            {widgets.window && (
              <Tooltip label={t('segments.field.windowHint')} multiline w={240} withArrow>
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" c="dimmed">
                    {t('segments.field.window')}
                  </Text>
                  <DaysInput label={`${label}: ${t('segments.field.window')}`} placeholder="—" value={c.dateDays} readOnly={readOnly} onCommit={(dateDays) => onChange({ dateDays })} />
                </Group>
              </Tooltip>
            )}
          </Group>
          {!readOnly && onRemove && (
            <Tooltip label={t('segments.editor.removeCondition')} withArrow>
              <ActionIcon variant="subtle" color="gray" size="lg" aria-label={`${t('segments.editor.removeCondition')} ${index}`} onClick={onRemove} data-testid="remove-condition">
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        {(problems.length > 0 || peer) && (
          <Group gap="sm" justify="space-between" wrap="nowrap">
            <Box aria-live="polite" data-testid="condition-problems">
              {problems.length > 0 && (
                <Text size="xs" c="red.7">
                  {problems.map((p) => t(`segments.problem.${p.code}`)).join(' ')}
                </Text>
              )}
            </Box>
            {peer && (
              <Badge size="sm" variant="light" tt="none" fw={500} style={{ color: peer.color, background: `${peer.color}1a`, flexShrink: 0 }} data-testid="condition-peer">
                {t('segments.editor.editing', { name: peer.name })}
              </Badge>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function OperatorSelect({ label, groups, value, readOnly, error, disabled, onChange, testId }: {
  label: string;
  groups: readonly OperatorGroup[];
  value: SegmentOperator | null;
  readOnly: boolean;
  error: boolean;
  disabled: boolean;
  onChange: (op: SegmentOperator | null) => void;
  testId: string;
}) {
  const { t } = useT();
  const offered = groups.flatMap((g) => g.operators);
  // An operator another version (or person) wrote that this field does not offer still shows.
  const held = value !== null && !offered.includes(value) ? [{ value, label: t(`segments.operator.${value}`) }] : [];
  return (
    <Select
      size="sm"
      w={230}
      aria-label={label}
      placeholder={t('segments.field.operator')}
      data={[
        ...groups.map((g) => ({ group: t(`segments.inputKind.${g.inputKind}`), items: g.operators.map((op) => ({ value: op, label: t(`segments.operator.${op}`) })) })),
        ...held,
      ]}
      value={value}
      readOnly={readOnly}
      disabled={disabled && value === null}
      error={error}
      allowDeselect={false}
      maxDropdownHeight={320}
      onChange={(v) => {
        const op = SegmentOperator.safeParse(v);
        if (op.success && op.data !== value) onChange(op.data);
      }}
      comboboxProps={{ withinPortal: true }}
      data-testid={testId}
    />
  );
}
