/**
 * The "what exactly" of a condition (`id`), by filter kind: an attribute, an automatic or app event
 * (with its property for "with property"), a user tag, an event property, a product property, a
 * purchase measure, an in-app message (any or one), a device field, a message channel, or free
 * text for an unsupported filter. Lists come from the app (useSegmentOptions); what the document
 * holds is always shown, also when a list does not have it.
 */
import { Autocomplete, Group, Select, type AutocompleteProps } from '@mantine/core';
import { SegmentAttribute, type SegmentCondition } from '@gd/shared/segment/model';
import { CampaignChannel, DeviceField, PurchaseMeasure } from '@gd/shared/segment/semantics';
import { PURCHASE_PRODUCT_PROPERTY, ANY_MESSAGE } from '@gd/shared/segment/semantics';
import { useT } from '../../i18n/useT.ts';
import { DraftTextInput, useDraft } from '../../ui/draft.tsx';
import { composeEventId, eventOf, patchId, propertyOf } from './conditionShape.ts';
import type { Option, SegmentOptions } from './useSegmentOptions.ts';

interface Props {
  c: SegmentCondition;
  label: string;
  readOnly: boolean;
  error: boolean;
  options: SegmentOptions;
  onChange: (patch: Partial<SegmentCondition>) => void;
}

const W = 200;

const held = (options: Option[], value: string | null): Option[] =>
  value === null || value === '' || options.some((o) => o.value === value) ? options : [...options, { value, label: value }];

export function FieldPicker({ c, label, readOnly, error, options, onChange }: Props) {
  const { t } = useT();
  const setId = (id: string | null) => {
    const next = id === null || id.trim() === '' ? null : id.trim();
    if (next !== c.id) onChange(patchId(c, next, options.tagType));
  };
  const common = { size: 'sm' as const, readOnly, error, 'data-testid': 'condition-field' };
  const pick = (aria: string, data: Option[], w = W) => (
    <Select
      {...common}
      w={w}
      aria-label={`${label}: ${aria}`}
      placeholder={aria}
      data={held(data, c.id)}
      value={c.id}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('segments.field.noOptions')}
      onChange={setId}
      comboboxProps={{ withinPortal: true }}
    />
  );

  const text = (aria: string, value: string, onCommit: (v: string) => void, w = 150, testId?: string) => (
    <DraftTextInput size="sm" w={w} readOnly={readOnly} error={error} aria-label={`${label}: ${aria}`} placeholder={aria} value={value} maxLength={64} onCommit={onCommit} data-testid={testId} />
  );

  switch (c.type) {
    case null:
      return <Select {...common} w={W} aria-label={`${label}: ${t('segments.field.id')}`} placeholder={t('segments.field.id')} data={[]} value={null} disabled />;
    case 'attribute':
      return pick(t('segments.field.attribute'), SegmentAttribute.options.map((a) => ({ value: a, label: t(`segments.attribute.${a}`) })).sort((a, b) => a.label.localeCompare(b.label)));
    case 'user_tag':
      return pick(t('segments.field.tag'), options.userTags);
    case 'user_purchase_tag':
      return pick(t('segments.field.measure'), PurchaseMeasure.options.map((m) => ({ value: m, label: t(`segments.measure.${m}`) })));
    case 'device_os':
      return pick(t('segments.field.deviceField'), DeviceField.options.map((f) => ({ value: f, label: t(`segments.deviceField.${f}`) })));
    case 'filter_campaign':
      return pick(t('segments.field.channel'), CampaignChannel.options.map((ch) => ({ value: ch, label: t(`segments.channel.${ch}`) })));
    case 'aevent':
    case 'user_event': {
      const event = eventOf(c.id);
      const property = propertyOf(c.id);
      const setEvent = (name: string) => setId(name.trim() === '' ? null : composeEventId(name.trim(), property));
      return (
        <Group gap="xs" wrap="nowrap">
          {c.type === 'aevent' ? (
            <Select
              {...common}
              w={W}
              aria-label={`${label}: ${t('segments.field.event')}`}
              placeholder={t('segments.field.event')}
              data={held(options.automaticEvents, event || null)}
              value={event || null}
              searchable
              allowDeselect={false}
              onChange={(v) => setEvent(v ?? '')}
              comboboxProps={{ withinPortal: true }}
            />
          ) : (
            <DraftAutocomplete {...common} w={W} aria-label={`${label}: ${t('segments.field.event')}`} placeholder={t('segments.field.event')} data={options.appEvents} value={event} onCommit={setEvent} />
          )}
          {c.condition === 'with_property' && text(t('segments.field.property'), property, (p) => setId(event === '' ? null : composeEventId(event, p)), 150, 'condition-property')}
        </Group>
      );
    }
    case 'user_event_tag': {
      const event = eventOf(c.id);
      const property = propertyOf(c.id);
      const events = [...options.appEvents, ...options.automaticEvents];
      return (
        <Group gap="xs" wrap="nowrap">
          <DraftAutocomplete {...common} w={W} aria-label={`${label}: ${t('segments.field.event')}`} placeholder={t('segments.field.event')} data={events} value={event} onCommit={(e) => setId(e.trim() === '' ? null : `${e.trim()}/${property}`)} />
          {text(t('segments.field.property'), property, (p) => setId(event === '' && p.trim() === '' ? null : `${event}/${p.trim()}`), 150, 'condition-property')}
        </Group>
      );
    }
    case 'user_product_tag':
      return (
        <DraftAutocomplete
          {...common}
          w={W}
          aria-label={`${label}: ${t('segments.field.product')}`}
          placeholder={t('segments.field.product')}
          data={[{ value: PURCHASE_PRODUCT_PROPERTY, label: PURCHASE_PRODUCT_PROPERTY }]}
          value={c.id ?? ''}
          onCommit={setId}
        />
      );
    case 'inapp_impressions':
    case 'inapp_clicks': {
      const any = c.id === ANY_MESSAGE;
      return (
        <Group gap="xs" wrap="nowrap">
          <Select
            {...common}
            w={W}
            aria-label={`${label}: ${t('segments.field.message')}`}
            data={[
              { value: 'any', label: t('segments.field.anyMessage') },
              { value: 'one', label: t('segments.field.specificMessage') },
            ]}
            value={any ? 'any' : 'one'}
            allowDeselect={false}
            onChange={(v) => setId(v === 'any' ? ANY_MESSAGE : null)}
            comboboxProps={{ withinPortal: true }}
          />
          {!any && text(t('segments.field.messageId'), c.id ?? '', setId)}
        </Group>
      );
    }
    case 'unsupported':
      return text(t('segments.field.id'), c.id ?? '', setId, W);
    default: {
      const never: never = c.type;
      throw new Error(`unknown filter kind ${String(never)}`);
    }
  }
}

/** Free text with suggestions; committed like the other typed fields, and at once when a suggestion is picked. */
function DraftAutocomplete({ value, onCommit, data, ...rest }: Omit<AutocompleteProps, 'value' | 'onChange' | 'data'> & { value: string; data: Option[]; onCommit: (v: string) => void; 'data-testid'?: string }) {
  const draft = useDraft(value, onCommit);
  return (
    <Autocomplete
      {...rest}
      data={data}
      value={draft.value}
      onChange={draft.change}
      onOptionSubmit={(v) => {
        draft.change(v);
        draft.flush();
      }}
      onBlur={draft.end}
      onKeyDown={(e) => {
        if (e.key === 'Enter') draft.flush();
      }}
      comboboxProps={{ withinPortal: true }}
      maxLength={64}
    />
  );
}
