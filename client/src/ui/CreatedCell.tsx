/** When and by whom a row (an import, an export) was created, as a table cell. */
import { Table, Text } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { formatDateTime } from './format.ts';

export function CreatedCell({ at, by }: { at: string; by: string | null }) {
  const { lang } = useT();
  return (
    <Table.Td>
      <Text size="sm">{formatDateTime(at, lang)}</Text>
      {by && <Text size="xs" c="dimmed" truncate="end" maw={180}>{by}</Text>}
    </Table.Td>
  );
}
