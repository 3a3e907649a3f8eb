/** The explore data table: periods down, series across, totals at the foot; the CSV export writes exactly these cells (labels already truncated by the table model). */
import { Paper, Table, Text } from '@mantine/core';
import type { ExploreTableText } from './exploreTable.ts';

const numeric = { fontVariantNumeric: 'tabular-nums' } as const;

export function ExploreResultTable({ table, label }: { table: ExploreTableText; label: string }) {
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={Math.max(480, 160 + 150 * (table.head.length - 1))} maxHeight={520}>
        <Table stickyHeader striped highlightOnHover aria-label={label} data-testid="explore-table" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              {table.head.map((cell, i) => (
                <Table.Th key={i} ta={i === 0 ? 'left' : 'right'}>
                  {cell}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {table.rows.map((row) => (
              <Table.Tr key={row[0]}>
                {row.map((cell, i) => (
                  <Table.Td key={i} ta={i === 0 ? 'left' : 'right'} style={i === 0 ? undefined : numeric}>
                    {cell}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              {table.totals.map((cell, i) => (
                <Table.Th key={i} ta={i === 0 ? 'left' : 'right'} style={i === 0 ? undefined : numeric}>
                  <Text span size="sm" fw={700}>
                    {cell}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
