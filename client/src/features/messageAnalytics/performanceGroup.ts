/** The performance report's grouping: the shell range's own (an hourly range reads by day) until one is chosen. */
import type { PerformanceGroup } from '@gd/shared/schemas/messageAnalytics';

export function defaultGroupFor(timeGroup: string): PerformanceGroup {
  return timeGroup === 'week' || timeGroup === 'month' ? timeGroup : 'day';
}
