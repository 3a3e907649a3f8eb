/** An export's status (SPEC.md section 4: ready, error, processing, warning) with what went wrong on hover. */
import { Badge, Loader, Tooltip } from '@mantine/core';
import type { AudienceExport, ExportStatus } from '@gd/shared/schemas/imports';
import { useT } from '../../i18n/useT.ts';

const COLOR: Record<ExportStatus, string> = { ready: 'teal', error: 'red', processing: 'blue', warning: 'yellow' };

export function ExportStatusBadge({ item }: { item: Pick<AudienceExport, 'status' | 'warning' | 'errorMessage'> }) {
  const { t } = useT();
  const detail = item.status === 'warning' ? item.warning : item.status === 'error' ? item.errorMessage : null;
  return (
    <Tooltip label={detail ?? ''} disabled={!detail} multiline w={320} withArrow>
      <Badge
        color={COLOR[item.status]}
        variant="light"
        radius="sm"
        tt="none"
        fw={600}
        tabIndex={detail ? 0 : -1}
        style={{ flexShrink: 0, minWidth: 'max-content' }}
        data-testid="export-status"
        data-status={item.status}
        leftSection={item.status === 'processing' ? <Loader size={10} color="blue" /> : undefined}
      >
        {t(`exports.status.${item.status}`)}
      </Badge>
    </Tooltip>
  );
}
