/**
 * The last `value` seen for `key`, returned while `value` is null for a moment.
 *
 * A document screen (a journey, a segment) takes its document's name from a summary query, and
 * from the ids while the server is unreachable. When the connection returns, that query leaves its
 * "unreachable" error for a fresh load, and for that moment there is neither. Rendering "opening"
 * then unmounted the editor and closed the document's session in the middle of its first sync: a
 * refused browser copy that was being dropped and reloaded came back without saying so, and what
 * the person had selected was lost. A document's name never changes for the same id, so the screen
 * keeps the one it had.
 */
import { useState } from 'react';

export function useLastKnown<T>(value: T | null, key: string): T | null {
  const [kept, setKept] = useState<{ key: string; value: T } | null>(null);
  // Adjusting state while rendering (React re-renders at once, before the children): no effect lag.
  if (value !== null && (kept === null || kept.key !== key || kept.value !== value)) setKept({ key, value });
  if (value !== null) return value;
  return kept !== null && kept.key === key ? kept.value : null;
}
