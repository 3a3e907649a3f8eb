/** Pure helpers of the SKAdNetwork screen. */

/** A revenue range as text: "€20.00 – €50.00", one amount when both ends agree, "€5.00+" when open, "—" for none. */
export function revenueText(min: number | null, max: number | null, money: (x: number) => string): string {
  if (min === null && max === null) return '—';
  const low = min ?? 0;
  if (max === null) return `${money(low)}+`;
  if (low === max) return low === 0 ? '—' : money(low);
  return `${money(low)} – ${money(max)}`;
}

/** Events by conversions, most first (then by name), at most `limit`. */
export function topEvents(events: Record<string, number>, limit = 4): [string, number][] {
  return Object.entries(events).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, limit);
}

/** "a, b , ,c" → ["a", "b", "c"]: the events of a schema row as typed. */
export const splitEvents = (text: string): string[] => [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];

/** A money bound as typed ("" = open), or undefined when it is not a number. */
export function parseBound(text: string): number | null | undefined {
  const s = text.trim().replace(',', '.');
  if (s === '') return null;
  const x = Number(s);
  return Number.isFinite(x) && x >= 0 ? x : undefined;
}
