/**
 * Tells a person that their rights on the open document changed while they were in it (the server
 * closed the connection and the document reopened with the new rights), until they dismiss it.
 */
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocAccess } from './collabState.ts';

export function AccessChangedNotice({ changes, access }: { changes: number; access: DocAccess | null }) {
  const { t } = useTranslation();
  const [seen, setSeen] = useState(0);
  if (changes <= seen || access === null) return null;
  return (
    <Alert color="blue" variant="light" icon={<IconLock size={16} />} py="xs" withCloseButton onClose={() => setSeen(changes)} data-testid="access-changed-notice">
      {t(access === 'read' ? 'journeys.sync.accessNowRead' : 'journeys.sync.accessNowWrite')}
    </Alert>
  );
}
