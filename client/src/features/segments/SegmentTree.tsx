/**
 * The condition tree: the root group and nested and/or groups, each with its combinator ("match
 * all / any of these conditions"), its children joined by "and"/"or", and buttons to add a
 * condition or a group. Groups nest up to MAX_DEPTH levels (the spec sets no limit; deeper trees
 * stop being readable, and any depth a document holds still shows). Pure presentation over a
 * segment: edits go out as SegmentOps; `readOnly` shows the same tree without controls (also
 * used for an audience's last-counted conditions).
 */
import { Fragment } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Paper, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { IconBracketsContain, IconFilterPlus, IconTrash } from '@tabler/icons-react';
import { conditionOf, type Segment, type SegmentCombinator, type SegmentGroupNode, type SegmentNode } from '@gd/shared/segment/model';
import { useT } from '../../i18n/useT.ts';
import type { Peer } from '../../sync/presence.ts';
import { ConditionRow } from '../../entities/segment/ConditionRow.tsx';
import type { RowProblem } from '../../entities/segment/problems.ts';
import type { SegmentOp } from './segmentOps.ts';
import type { SegmentOptions } from '../../entities/segment/useSegmentOptions.ts';

export const MAX_DEPTH = 4;

export interface SegmentTreeProps {
  segment: Segment;
  problems: ReadonlyMap<string, readonly RowProblem[]>;
  readOnly: boolean;
  options: SegmentOptions;
  peers: readonly Peer[];
  onOp: (op: SegmentOp) => void;
  onFocusNode: (key: string | null) => void;
}

interface Ctx extends SegmentTreeProps {
  byKey: ReadonlyMap<string, SegmentNode>;
  /** Condition numbers in reading order (1-based), for labels. */
  numbers: ReadonlyMap<string, number>;
}

export function SegmentTree(props: SegmentTreeProps) {
  const byKey = new Map(props.segment.nodes.map((n) => [n.key, n]));
  const numbers = new Map<string, number>();
  const walk = (key: string) => {
    const node = byKey.get(key);
    if (node?.kind === 'condition') numbers.set(key, numbers.size + 1);
    else node?.children.forEach(walk);
  };
  walk(props.segment.rootKey);
  const root = byKey.get(props.segment.rootKey);
  if (!root || root.kind !== 'group') return null;
  return <GroupBlock ctx={{ ...props, byKey, numbers }} group={root} depth={0} />;
}

function GroupBlock({ ctx, group, depth }: { ctx: Ctx; group: SegmentGroupNode; depth: number }) {
  const { t } = useT();
  const { readOnly, onOp } = ctx;
  const children = group.children.map((k) => ctx.byKey.get(k)).filter((n): n is SegmentNode => n !== undefined);
  const isRoot = depth === 0;
  const setCombinator = (combinator: string) => onOp({ kind: 'combinator', key: group.key, combinator: combinator as SegmentCombinator });

  const header = (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {t('segments.editor.match')}
        </Text>
        <SegmentedControl
          size="xs"
          value={group.combinator}
          onChange={setCombinator}
          readOnly={readOnly}
          data={(['and', 'or'] as const).map((c) => ({ value: c, label: t(`segments.combinator.${c}`) }))}
          aria-label={t(`segments.combinatorLong.${group.combinator}`)}
          data-testid="group-combinator"
        />
        <Text size="sm" fw={500}>
          {t('segments.editor.ofTheseConditions')}
        </Text>
      </Group>
      {!isRoot && !readOnly && (
        <Tooltip label={t('segments.editor.removeGroup')} withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label={t('segments.editor.removeGroup')} onClick={() => onOp({ kind: 'remove', key: group.key })} data-testid="remove-group">
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );

  const body = (
    <Stack gap={6}>
      {children.map((child, i) => (
        <Fragment key={child.key}>
          {i > 0 && <Joiner combinator={group.combinator} />}
          {child.kind === 'group' ? (
            <GroupBlock ctx={ctx} group={child} depth={depth + 1} />
          ) : (
            <ConditionRow
              nodeKey={child.key}
              index={ctx.numbers.get(child.key) ?? 0}
              c={conditionOf(child)}
              problems={ctx.problems.get(child.key) ?? []}
              readOnly={readOnly}
              options={ctx.options}
              peers={ctx.peers.filter((p) => p.selectedStepId === child.key)}
              onChange={(patch) => onOp({ kind: 'patch', key: child.key, patch })}
              onRemove={() => onOp({ kind: 'remove', key: child.key })}
              onFocusChange={(focused) => ctx.onFocusNode(focused ? child.key : null)}
            />
          )}
        </Fragment>
      ))}
    </Stack>
  );

  const actions = !readOnly && (
    <Group gap="xs">
      <Button variant="light" size="xs" leftSection={<IconFilterPlus size={14} />} onClick={() => onOp({ kind: 'addCondition', parentKey: group.key })} data-testid="add-condition">
        {t('segments.editor.addCondition')}
      </Button>
      {depth + 1 < MAX_DEPTH && (
        <Button variant="subtle" size="xs" color="gray" leftSection={<IconBracketsContain size={14} />} onClick={() => onOp({ kind: 'addGroup', parentKey: group.key })} data-testid="add-group">
          {t('segments.editor.addGroup')}
        </Button>
      )}
    </Group>
  );

  if (isRoot) {
    return (
      <Stack gap="sm" data-testid="segment-group" data-key={group.key} data-combinator={group.combinator}>
        {header}
        {body}
        {actions}
      </Stack>
    );
  }
  return (
    <Paper
      radius="md"
      p="sm"
      bg="var(--mantine-color-gray-0)"
      style={{ borderLeft: '3px solid var(--mantine-color-blue-4)' }}
      role="group"
      aria-label={t('segments.editor.groupLabel')}
      data-testid="segment-group"
      data-key={group.key}
      data-combinator={group.combinator}
    >
      <Stack gap="sm">
        {header}
        {body}
        {actions}
      </Stack>
    </Paper>
  );
}

function Joiner({ combinator }: { combinator: SegmentCombinator }) {
  const { t } = useT();
  return (
    <Box pl="md">
      <Badge size="sm" variant="outline" color={combinator === 'and' ? 'blue' : 'grape'} radius="sm">
        {t(`segments.join.${combinator}`)}
      </Badge>
    </Box>
  );
}
