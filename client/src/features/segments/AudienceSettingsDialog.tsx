/** An audience's settings: name, test flag and refresh period (PUT /audiences/:id). */
import type { AudienceSummary } from '@gd/shared/schemas/segments';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { AudienceFormDialog } from './SaveAudienceDialog.tsx';

export function AudienceSettingsDialog({ audience, onClose, onSaved }: { audience: AudienceSummary; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  return (
    <AudienceFormDialog
      title={t('audiences.editTitle')}
      submitLabel={t('common.save')}
      initial={{ name: audience.name, isTest: audience.isTest, refreshEveryMinutes: audience.refreshEveryMinutes }}
      onClose={onClose}
      onSubmit={async (body) => {
        await api.call('updateAudience', { params: { appId: audience.appId, audienceId: audience.id }, body });
        onSaved();
      }}
    />
  );
}
