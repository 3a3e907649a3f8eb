/**
 * What a number field of the draft stores from Mantine's NumberInput `onChange`: the typed value
 * when it is a whole number, unclamped (validation shows an out-of-range one, the input clamps on
 * blur), else null (an empty or partial entry: the draft keeps its last value).
 */
export function wholeNumber(value: number | string): number | null {
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}
