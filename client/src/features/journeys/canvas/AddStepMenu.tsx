/** The "+" on a link: a menu of the step types that may be inserted there, grouped by category. */
import { Fragment } from 'react';
import { ActionIcon, Group, Menu, Text, ThemeIcon } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { stepCategory, type StepType } from '@gd/shared/journey/model';
import { useT } from '../../../i18n/useT.ts';
import { CATEGORY_ORDER, STEP_VISUALS } from './stepVisuals.ts';

export function AddStepMenu({ types, label, onAdd }: { types: readonly StepType[]; label: string; onAdd: (type: StepType) => void }) {
  const { t } = useT();
  const groups = CATEGORY_ORDER.map((category) => ({ category, types: types.filter((type) => stepCategory(type) === category) })).filter(
    (g) => g.types.length > 0,
  );
  return (
    <Menu position="right-start" withinPortal shadow="md" width={280} offset={8}>
      <Menu.Target>
        <ActionIcon className="jc-edge-add nodrag nopan" size={22} radius="xl" variant="default" aria-label={label} title={label}>
          <IconPlus size={13} stroke={2.4} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown mah={420} style={{ overflowY: 'auto' }}>
        {groups.map((g, i) => (
          <Fragment key={g.category}>
            {i > 0 && <Menu.Divider />}
            <Menu.Label>{t(`journeyEditor.category.${g.category}`)}</Menu.Label>
            {g.types.map((type) => {
              const { icon: Icon, color } = STEP_VISUALS[type];
              return (
                <Menu.Item
                  key={type}
                  onClick={() => onAdd(type)}
                  leftSection={
                    <ThemeIcon variant="light" color={color} size={28} radius="md">
                      <Icon size={16} />
                    </ThemeIcon>
                  }
                >
                  <Group gap={0} wrap="nowrap">
                    <div>
                      <Text size="sm" fw={500} lh={1.3}>
                        {t(`stepType.${type}`)}
                      </Text>
                      <Text size="xs" c="dimmed" lh={1.3}>
                        {t(`journeyEditor.stepHint.${type}`)}
                      </Text>
                    </div>
                  </Group>
                </Menu.Item>
              );
            })}
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
