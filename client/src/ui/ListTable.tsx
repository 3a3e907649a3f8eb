/**
 * The list screens' frame: an empty state when there is nothing to show, otherwise a bordered,
 * horizontally scrolling table with the given header cells and rows.
 */
import type { ReactNode } from 'react';
import { Paper, Table } from '@mantine/core';

export function ListTable({ isEmpty, empty, label, minWidth, head, children }: {
  isEmpty: boolean;
  /** Shown instead of the table when `isEmpty` (an EmptyBlock). */
  empty: ReactNode;
  /** The table's accessible name. */
  label: string;
  minWidth: number;
  /** Header cells (`Table.Th`). */
  head: ReactNode;
  /** Rows (`Table.Tr`). */
  children: ReactNode;
}) {
  if (isEmpty) return <Paper withBorder>{empty}</Paper>;
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table aria-label={label} style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>{head}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
