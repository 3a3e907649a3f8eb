/**
 * A message's categories and its campaign's, under the message header: each picker saves as it is
 * changed (entities/category). Who may edit the message may change both (the API checks the
 * owner variants on each: a campaign is its creator's).
 */
import { Paper, SimpleGrid } from '@mantine/core';
import type { MessageSummary } from '@gd/shared/schemas/messages';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { EntityCategories } from '../../entities/category/CategoryPicker.tsx';

export function MessageCategories({ appId, message }: { appId: string; message: MessageSummary }) {
  const { t } = useT();
  const can = usePermissions('app');
  const editable = can('ui:message.edit', { ownerId: message.ownerId });
  return (
    <Paper withBorder radius="md" px="md" py="sm" data-testid="message-categories">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <EntityCategories appId={appId} entityType="message" entityId={message.id} editable={editable} label={t('categories.messageCategories')} testId="message-category-picker" />
        <EntityCategories appId={appId} entityType="campaign" entityId={message.campaignId} editable={editable} label={t('categories.campaignCategories')} testId="campaign-category-picker" />
      </SimpleGrid>
    </Paper>
  );
}
