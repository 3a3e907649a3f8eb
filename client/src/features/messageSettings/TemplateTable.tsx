/**
 * A list of native ad templates (an app's or the platform's): name with the default's badge, the
 * fields each ad carries, when it changed, and the actions. The default cannot be deleted (33):
 * its delete stays disabled and says so; "make default" moves the default to another template.
 */
import type { ReactNode } from 'react';
import { Badge, Group, Table, Text, Tooltip } from '@mantine/core';
import { IconStar } from '@tabler/icons-react';
import type { NativeTemplate } from '@gd/shared/schemas/messageSettings';
import { useT } from '../../i18n/useT.ts';
import { EditDeleteIcons, GatedIcon } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { formatDate } from '../../ui/format.ts';

/** Fields shown in a row before "+N more". */
const FIELDS_SHOWN = 4;

export function TemplateTable({ templates, label, empty, canEdit, onEdit, onDelete, onMakeDefault }: {
  templates: readonly NativeTemplate[];
  label: string;
  empty: ReactNode;
  /** null: read-only rows (no actions). */
  canEdit: boolean | null;
  onEdit?: (template: NativeTemplate) => void;
  onDelete?: (template: NativeTemplate) => void;
  onMakeDefault?: (template: NativeTemplate) => void;
}) {
  const { t, lang } = useT();
  const actions = canEdit !== null;
  return (
    <ListTable
      isEmpty={templates.length === 0}
      empty={empty}
      label={label}
      minWidth={860}
      head={
        <>
          {/* Fixed widths, so an editable list and a read-only one below it line up. */}
          <Table.Th w={320}>{t('messageSettings.templates.fields.name')}</Table.Th>
          <Table.Th w={480}>{t('messageSettings.templates.fields.fields')}</Table.Th>
          <Table.Th>{t('messageSettings.templates.fields.updated')}</Table.Th>
          {/* Read-only lists keep the (empty) column, so they line up with an editable one above. */}
          <Table.Th w={130} ta="right">{actions ? t('common.actions') : ''}</Table.Th>
        </>
      }
    >
      {templates.map((template) => (
        <Table.Tr key={template.id} data-testid="template-row">
          <Table.Td maw={320}>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" fw={600} truncate="end">{template.name}</Text>
              {template.isDefault && <Badge variant="light" color="indigo" tt="none" leftSection={<IconStar size={11} />}>{t('messageSettings.templates.isDefault')}</Badge>}
            </Group>
          </Table.Td>
          <Table.Td>
            <FieldChips template={template} />
          </Table.Td>
          <Table.Td>
            <Text size="sm" c="dimmed">{formatDate(template.updatedAt, lang)}</Text>
          </Table.Td>
          {!actions && <Table.Td />}
          {actions && (
            <Table.Td>
              <EditDeleteIcons
                before={
                  <GatedIcon
                    allowed={canEdit && !template.isDefault}
                    reason={canEdit && template.isDefault ? t('messageSettings.templates.defaultLocked') : undefined}
                    label={t('messageSettings.templates.makeDefault')}
                    onClick={() => onMakeDefault?.(template)}
                  >
                    <IconStar size={16} />
                  </GatedIcon>
                }
                edit={{ allowed: canEdit, onClick: () => onEdit?.(template) }}
                remove={{
                  allowed: canEdit && !template.isDefault,
                  reason: canEdit && template.isDefault ? t('messageSettings.templates.defaultKept') : undefined,
                  onClick: () => onDelete?.(template),
                }}
              />
            </Table.Td>
          )}
        </Table.Tr>
      ))}
    </ListTable>
  );
}

/** The template's fields as chips (dashed: optional), with label, kind and limits in the tooltip. */
function FieldChips({ template }: { template: NativeTemplate }) {
  const { t } = useT();
  const rest = template.fields.length - FIELDS_SHOWN;
  return (
    <Group gap={4} wrap="nowrap">
      {template.fields.slice(0, FIELDS_SHOWN).map((field) => (
        <Tooltip
          key={field.key}
          label={[field.label, t(`messageSettings.templates.kind.${field.kind}`), field.required ? null : t('messageSettings.templates.optional'), field.maxLength ? t('messageSettings.templates.chars', { count: field.maxLength }) : null].filter(Boolean).join(' · ')}
        >
          {/* Optional fields: a dashed outline (the tooltip says so in words). */}
          <Badge variant="outline" color="gray" tt="none" className="gd-mono" maw={130} style={{ flexShrink: 0, ...(field.required ? {} : { borderStyle: 'dashed' }) }}>{field.key}</Badge>
        </Tooltip>
      ))}
      {rest > 0 && <Text size="xs" c="dimmed">{t('messageSettings.parameters.moreValues', { count: rest })}</Text>}
    </Group>
  );
}
