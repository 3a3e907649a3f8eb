/**
 * A named thing's link in a table's first column (a cell styled NAME_CELL_STYLE): one line,
 * ellipsised past the column's width (the whole name in the tooltip), so a long name never pushes
 * the other columns away. Names are
 * at most NAME_MAX characters (shared schemas/common.ts) wherever they are made.
 */
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/**
 * The name column's cell: it takes the room the other columns leave (`width: 100%`) and never asks
 * for more (`maxWidth: 0`: its min-content width is nothing), so a long name is ellipsised and the
 * table never grows wider than its container because of it.
 */
export const NAME_CELL_STYLE = { maxWidth: 0, width: '100%' } as const;

export function NameLink({ to, name, label }: { to: string; name: string; label: string }) {
  return (
    <Anchor
      component={Link}
      to={to}
      fw={600}
      size="sm"
      aria-label={label}
      title={name}
      truncate="end"
      display="block"
      miw={120}
      onClick={(e) => e.stopPropagation()}
    >
      {name}
    </Anchor>
  );
}
