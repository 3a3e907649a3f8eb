/**
 * Export an audience's members (for the audiences screen to mount): a menu to start a CSV or a ZIP
 * export; while it is written the button says so (polling its status), then offers the download.
 * Every export is also listed, with its status, on /manage/import-task.
 *
 *   <AudienceExportButton appId={app.id} audienceId={audience.id} />
 */
import { useState } from 'react';
import { Button, Menu, Tooltip } from '@mantine/core';
import { IconDownload, IconFileExport, IconFileTypeCsv, IconFileZip } from '@tabler/icons-react';
import type { AudienceExport, ExportFormat } from '@gd/shared/schemas/imports';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { usePermissions } from '../../session/permissions.ts';
import { GatedButton } from '../../ui/Gated.tsx';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { exportDownloadUrl } from '../../entities/export/downloadUrl.ts';
import { usePolling } from '../../state/usePolling.ts';

export function AudienceExportButton({ appId, audienceId, size = 'sm' }: { appId: string; audienceId: string; size?: 'xs' | 'sm' | 'md' }) {
  const { t } = useT();
  const can = usePermissions('app');
  const [current, setCurrent] = useState<AudienceExport | null>(null);
  const [starting, setStarting] = useState(false);

  const poll = () => {
    if (!current) return;
    void api.call('listAudienceExports', { params: { appId }, query: { audienceId } })
      .then(({ exports }) => setCurrent(exports.find((e) => e.id === current.id) ?? null))
      .catch(() => undefined);
  };
  usePolling(poll, current?.status === 'processing' ? 1_000 : null);

  const start = async (format: ExportFormat) => {
    setStarting(true);
    try {
      const { export: created } = await api.call('createAudienceExport', { params: { appId, audienceId }, body: { format } });
      setCurrent(created);
      notifySuccess(t('exports.started'));
    } catch (error) {
      notifyError(t, error);
    } finally {
      setStarting(false);
    }
  };

  if (current?.status === 'processing') {
    return <Button size={size} variant="default" loading loaderProps={{ type: 'dots' }} data-testid="audience-export-preparing">{t('exports.preparing')}</Button>;
  }
  if (current && (current.status === 'ready' || current.status === 'warning')) {
    return (
      <Tooltip label={current.warning ?? current.fileName ?? ''} disabled={!current.warning && !current.fileName} multiline w={320}>
        <Button
          size={size}
          component="a"
          href={exportDownloadUrl(appId, current.id)}
          download
          color={current.status === 'warning' ? 'yellow' : undefined}
          leftSection={<IconDownload size={16} />}
          onClick={() => setTimeout(() => setCurrent(null), 0)}
          data-testid="audience-export-download"
        >
          {t('exports.download')}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <GatedButton allowed={can('ui:audience.view')} size={size} variant="default" loading={starting} leftSection={<IconFileExport size={16} />} data-testid="audience-export">
          {t('exports.button')}
        </GatedButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileTypeCsv size={16} />} onClick={() => void start('csv')}>{t('exports.csv')}</Menu.Item>
        <Menu.Item leftSection={<IconFileZip size={16} />} onClick={() => void start('zip')}>{t('exports.zip')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
