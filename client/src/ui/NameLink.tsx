/**
 * A named thing's link in a table's first column: one line, ellipsised past the column's width
 * (the whole name in the tooltip), so a long name never pushes the other columns away. Names are
 * at most NAME_MAX characters (shared schemas/common.ts) wherever they are made.
 */
import { Anchor } from '@mantine/core';
import { Link } from 'react-router';

/** The widest a name column grows before its names are ellipsised. */
export const NAME_COLUMN_MAX = 'min(380px, 26vw)';

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
      maw={NAME_COLUMN_MAX}
      onClick={(e) => e.stopPropagation()}
    >
      {name}
    </Anchor>
  );
}
