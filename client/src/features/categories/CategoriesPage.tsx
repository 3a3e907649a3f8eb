/**
 * /manage/categories: the account's categories (the same in every app), with their colour, the
 * entity types they apply to and how many apps, campaigns and messages carry each. Everyone signed
 * in reads them; `api:categories.edit` creates, edits and deletes (schemas/categories.ts).
 */
import { useState } from 'react';
import { Alert, Badge, Group, Table, Text } from '@mantine/core';
import { IconCategory, IconInfoCircle, IconPlus } from '@tabler/icons-react';
import type { Category } from '@gd/shared/schemas/categories';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { DataState } from '../../ui/DataState.tsx';
import { EditDeleteIcons, GatedButton } from '../../ui/Gated.tsx';
import { ListTable } from '../../ui/ListTable.tsx';
import { NAME_CELL_STYLE } from '../../ui/NameLink.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { EmptyBlock } from '../../ui/States.tsx';
import { formatDate } from '../../ui/format.ts';
import { notifySuccess } from '../../ui/notify.ts';
import { ColourDot } from '../../entities/category/CategoryFilter.tsx';
import { useCategories } from '../../entities/category/categories.ts';
import { CategoryDialog } from './CategoryDialog.tsx';

type Dialog = { kind: 'add' } | { kind: 'edit' | 'delete'; category: Category } | null;

const used = (c: Category) => c.counts.app + c.counts.campaign + c.counts.message;
/** A badge keeps its whole word when the table is narrow. */
const WHOLE = { flexShrink: 0, minWidth: 'max-content' } as const;

export default function CategoriesPage() {
  const { t, lang } = useT();
  const can = usePermissions('account');
  const canEdit = can('api:categories.edit');
  const categories = useCategories();
  const [dialog, setDialog] = useState<Dialog>(null);

  const addButton = (
    <GatedButton allowed={canEdit} leftSection={<IconPlus size={16} />} onClick={() => setDialog({ kind: 'add' })} data-testid="category-add">
      {t('categories.add')}
    </GatedButton>
  );

  return (
    <>
      <PageHeader title={t('nav.categories')} description={t('categories.description')} actions={addButton} />
      {!canEdit && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} mb="md">
          {t('categories.readOnly')}
        </Alert>
      )}
      <DataState query={categories}>
        {({ categories: list }) => (
          <ListTable
            isEmpty={list.length === 0}
            empty={<EmptyBlock icon={<IconCategory size={28} />} title={t('categories.emptyTitle')} description={t('categories.emptyBody')} action={addButton} />}
            label={t('nav.categories')}
            minWidth={820}
            head={
              <>
                <Table.Th>{t('categories.fields.name')}</Table.Th>
                <Table.Th>{t('categories.fields.entityTypes')}</Table.Th>
                <Table.Th>{t('categories.fields.usage')}</Table.Th>
                <Table.Th>{t('categories.fields.updated')}</Table.Th>
                <Table.Th w={100} ta="right">{t('common.actions')}</Table.Th>
              </>
            }
          >
            {list.map((category) => (
              <Table.Tr key={category.id} data-testid="category-row" data-category-id={category.id}>
                <Table.Td style={NAME_CELL_STYLE}>
                  <Group gap={10} wrap="nowrap" miw={160}>
                    <ColourDot colour={category.colour} size={12} />
                    <Text size="sm" fw={600} truncate="end" title={category.name}>{category.name}</Text>
                    <Text size="xs" c="dimmed" className="gd-mono" style={WHOLE}>{category.colour.toUpperCase()}</Text>
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {category.entityTypes.map((type) => (
                      <Badge key={type} size="sm" variant="light" color="gray" tt="none" style={WHOLE}>{t(`categories.entityType.${type}`)}</Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={used(category) === 0 ? 'dimmed' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {used(category) === 0
                      ? t('categories.unused')
                      : [
                        t('categories.usageApps', { count: category.counts.app }),
                        t('categories.usageCampaigns', { count: category.counts.campaign }),
                        t('categories.usageMessages', { count: category.counts.message }),
                      ].join(' · ')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>{formatDate(category.updatedAt, lang)}</Text>
                </Table.Td>
                <Table.Td>
                  <EditDeleteIcons
                    edit={{ allowed: canEdit, onClick: () => setDialog({ kind: 'edit', category }) }}
                    remove={{ allowed: canEdit, onClick: () => setDialog({ kind: 'delete', category }) }}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </ListTable>
        )}
      </DataState>
      {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
        <CategoryDialog
          category={dialog.kind === 'edit' ? dialog.category : undefined}
          onClose={() => setDialog(null)}
          onSaved={(category) => {
            notifySuccess(dialog.kind === 'add' ? t('categories.created', { name: category.name }) : t('common.saved'));
            setDialog(null);
            categories.refetch();
          }}
        />
      )}
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title={t('categories.deleteTitle')}
        message={dialog?.kind === 'delete' ? t('categories.deleteBody', { name: dialog.category.name, count: used(dialog.category) }) : ''}
        confirmLabel={t('common.delete')}
        danger
        onClose={() => setDialog(null)}
        onConfirm={async () => {
          if (dialog?.kind !== 'delete') return;
          await api.call('deleteCategory', { params: { categoryId: dialog.category.id } });
          notifySuccess(t('categories.deleted'));
          categories.refetch();
        }}
      />
    </>
  );
}
