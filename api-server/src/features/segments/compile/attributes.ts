/** Conditions on the person's attributes (user fields, push state, audiences, journeys). */
import type { SegmentAttribute, SegmentOperator } from '@gd/shared';
import { CompileError, conditionWindow, invalid, nullSafe, todayRange, values, type Cond } from './sql.ts';
import { interactions, messagesPredicate, occurrencesExist, timeIn } from './occurrences.ts';
import { scalarPredicate } from './values.ts';

export const ATTRIBUTE_COLUMNS = {
  app_version: { type: 'version', sql: 'p.app_version' },
  os_version: { type: 'version', sql: 'p.os_version' },
  sdk_version: { type: 'version', sql: 'p.sdk_version' },
  city: { type: 'text', sql: 'p.city' },
  country: { type: 'text', sql: 'p.country' },
  state: { type: 'text', sql: 'p.state' },
  email: { type: 'text', sql: 'p.email' },
  campaign: { type: 'text', sql: 'p.from_campaign' },
  source: { type: 'text', sql: 'p.from_source' },
  first_login: { type: 'instant', sql: 'p.first_login_at' },
  last_login: { type: 'instant', sql: 'p.last_login_at' },
  first_purchase: { type: 'instant', sql: 'p.first_purchase_at' },
  last_purchase: { type: 'instant', sql: 'p.last_purchase_at' },
  first_session: { type: 'instant', sql: '(SELECT min(s.started_at) FROM sessions s WHERE s.app_id = p.app_id AND s.person_id = p.id)' },
  last_session: { type: 'instant', sql: 'p.last_session_at' },
  registered: { type: 'instant', sql: 'p.registered_at' },
  install: { type: 'instant', sql: 'p.install_at' },
  birthday: { type: 'date', sql: 'p.birthday' },
} as const satisfies Partial<Record<SegmentAttribute, { type: 'text' | 'version' | 'instant' | 'date'; sql: string }>>;

export function attributePredicate(c: Cond, attribute: SegmentAttribute, op: SegmentOperator): string {
  if (attribute in ATTRIBUTE_COLUMNS) {
    const column = ATTRIBUTE_COLUMNS[attribute as keyof typeof ATTRIBUTE_COLUMNS];
    if (op === 'attributed') {
      const field = attribute === 'campaign' ? 'l.campaign' : attribute === 'source' ? 'l.source' : invalid('condition', 'operator_not_applicable');
      return `EXISTS (SELECT 1 FROM lifecycle_events l WHERE l.app_id = p.app_id AND l.person_id = p.id AND l.kind IN ('install','reinstall') AND lower(${field}) = ANY(gd_lower_all(${c.p.add(values(c), 'text[]')})))`;
    }
    return nullSafe(scalarPredicate(c, column.type, op, column.sql));
  }
  switch (attribute) {
    case 'push_active':
      // Devices with a push token and push enabled, counted on the person by the database (migration 017).
      return 'p.push_devices > 0';
    case 'push_open': {
      const o = interactions([`mi.channel = 'push'`, `mi.kind IN ('click','open')`]);
      return occurrencesExist(o, timeIn(c.p, o, conditionWindow(c)));
    }
    case 'push_over_limit': {
      const o = interactions([`mi.channel = 'push'`, `mi.kind = 'impression'`]);
      const window = conditionWindow(c) ?? todayRange(c);
      const count = `(SELECT count(*) FROM message_interactions mi WHERE mi.app_id = p.app_id AND mi.person_id = p.id AND ${[...o.filters, ...timeIn(c.p, o, window)].join(' AND ')})`;
      return scalarPredicate(c, 'number', op, count);
    }
    case 'audience': {
      const ids = values(c);
      for (const id of ids) {
        if (id === c.ctx.selfAudienceId) invalid('input', 'self_reference');
        if (!c.ctx.audiences.has(id)) throw new CompileError({ path: ['input'], code: 'audience_not_exist', error: 'AudienceNotExist' });
      }
      return `EXISTS (SELECT 1 FROM audience_members m WHERE m.app_id = p.app_id AND m.person_id = p.id AND m.audience_id = ANY(${c.p.add(ids, 'uuid[]')}))`;
    }
    case 'journey':
      return messagesPredicate(c, op, null, 'mi.journey_id');
    default:
      return invalid('id', 'unknown_target');
  }
}
