/**
 * One block of a landing in the editor: its type, move up / down and remove, and the fields of its
 * type (title, text, image, buttons, spacer). Errors come by path (`blocks.<i>.<field>`).
 */
import { ActionIcon, Badge, Button, ColorInput, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { LANDING_LIMITS, type LandingBlock, type LandingButton } from '@gd/shared/landings/model';
import { useT } from '../../i18n/useT.ts';

type Of<T extends LandingBlock['type']> = Extract<LandingBlock, { type: T }>;

interface Props {
  block: LandingBlock;
  index: number;
  count: number;
  errors: Record<string, string>;
  accent: string;
  disabled: boolean;
  onChange: (block: LandingBlock) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

export function BlockEditor({ block, index, count, errors, accent, disabled, onChange, onMove, onRemove }: Props) {
  const { t } = useT();
  const error = (field: string) => errors[`blocks.${index}.${field}`];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="landing-block" data-type={block.type}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Badge variant="light" color="indigo" tt="none">{t(`landings.blockType.${block.type}`)}</Badge>
          <Group gap={2} wrap="nowrap">
            <Tooltip label={t('landings.moveUp')}>
              <ActionIcon variant="subtle" color="gray" aria-label={t('landings.moveUp')} disabled={disabled || index === 0} onClick={() => onMove(-1)}><IconArrowUp size={16} /></ActionIcon>
            </Tooltip>
            <Tooltip label={t('landings.moveDown')}>
              <ActionIcon variant="subtle" color="gray" aria-label={t('landings.moveDown')} disabled={disabled || index === count - 1} onClick={() => onMove(1)}><IconArrowDown size={16} /></ActionIcon>
            </Tooltip>
            <Tooltip label={t('landings.removeBlock')}>
              <ActionIcon variant="subtle" color="red" aria-label={t('landings.removeBlock')} disabled={disabled} onClick={onRemove}><IconTrash size={16} /></ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Fields block={block} error={error} accent={accent} disabled={disabled} onChange={onChange} />
      </Stack>
    </Paper>
  );
}

function Fields({ block, error, accent, disabled, onChange }: { block: LandingBlock; error: (f: string) => string | undefined; accent: string; disabled: boolean; onChange: (b: LandingBlock) => void }) {
  const { t } = useT();
  switch (block.type) {
    case 'title':
      return (
        <>
          <TextInput label={t('landings.titleText')} value={block.text} maxLength={LANDING_LIMITS.title} error={error('text')} disabled={disabled} data-testid="block-title-text"
            onChange={(e) => onChange({ ...block, text: e.currentTarget.value })} />
          <Group gap="lg">
            <Choice label={t('landings.size.label')} value={block.size} disabled={disabled} options={[['large', t('landings.size.large')], ['medium', t('landings.size.medium')]]} onChange={(size) => onChange({ ...block, size })} />
            <Align value={block.align} disabled={disabled} onChange={(align) => onChange({ ...block, align })} />
          </Group>
        </>
      );
    case 'text':
      return (
        <>
          <Textarea label={t('landings.bodyText')} description={t('landings.bodyHint')} value={block.text} autosize minRows={3} maxRows={10} maxLength={LANDING_LIMITS.text}
            error={error('text')} disabled={disabled} data-testid="block-text" onChange={(e) => onChange({ ...block, text: e.currentTarget.value })} />
          <Align value={block.align} disabled={disabled} onChange={(align) => onChange({ ...block, align })} />
        </>
      );
    case 'image':
      return (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('landings.imageUrl')} placeholder="https://…" value={block.url} error={error('url')} disabled={disabled} data-testid="block-image-url"
              onChange={(e) => onChange({ ...block, url: e.currentTarget.value })} />
            <TextInput label={t('landings.imageAlt')} value={block.alt} maxLength={LANDING_LIMITS.alt} error={error('alt')} disabled={disabled}
              onChange={(e) => onChange({ ...block, alt: e.currentTarget.value })} />
          </SimpleGrid>
          <Choice label={t('landings.width.label')} value={block.width} disabled={disabled} options={[['full', t('landings.width.full')], ['medium', t('landings.width.medium')]]} onChange={(width) => onChange({ ...block, width })} />
        </>
      );
    case 'buttons':
      return <Buttons block={block} error={error} accent={accent} disabled={disabled} onChange={onChange} />;
    case 'spacer':
      return (
        <Choice label={t('landings.size.label')} value={block.size} disabled={disabled}
          options={[['small', t('landings.size.small')], ['medium', t('landings.size.medium')], ['large', t('landings.size.large')]]}
          onChange={(size) => onChange({ ...block, size })} />
      );
    default: {
      const unknown: never = block;
      throw new Error(`unknown block ${JSON.stringify(unknown)}`);
    }
  }
}

function Buttons({ block, error, accent, disabled, onChange }: { block: Of<'buttons'>; error: (f: string) => string | undefined; accent: string; disabled: boolean; onChange: (b: LandingBlock) => void }) {
  const { t } = useT();
  const set = (at: number, patch: Partial<LandingButton>) => onChange({ ...block, buttons: block.buttons.map((b, i) => (i === at ? { ...b, ...patch } : b)) });
  return (
    <>
      {block.buttons.map((button, at) => (
        <Paper key={at} bg="gray.0" p="xs" radius="sm" data-testid="block-button">
        <Stack gap={6}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            <TextInput label={t('landings.button.label')} value={button.label} maxLength={LANDING_LIMITS.label} error={error(`buttons.${at}.label`)} disabled={disabled}
              data-testid="button-label" onChange={(e) => set(at, { label: e.currentTarget.value })} />
            <TextInput label={t('landings.button.url')} placeholder={t('landings.buttonUrlPlaceholder')} value={button.url} error={error(`buttons.${at}.url`)} disabled={disabled}
              data-testid="button-url" onChange={(e) => set(at, { url: e.currentTarget.value })} />
          </SimpleGrid>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <ColorInput label={t('landings.button.background')} format="hex" value={button.background} error={error(`buttons.${at}.background`)} disabled={disabled} style={{ flex: 1 }}
              onChange={(background) => set(at, { background })} />
            <ColorInput label={t('landings.button.text')} format="hex" value={button.text} error={error(`buttons.${at}.text`)} disabled={disabled} style={{ flex: 1 }}
              onChange={(text) => set(at, { text })} />
            {block.buttons.length > 1 && (
              <Tooltip label={t('landings.button.remove')}>
                <ActionIcon variant="subtle" color="red" size={36} aria-label={t('landings.button.remove')} disabled={disabled}
                  onClick={() => onChange({ ...block, buttons: block.buttons.filter((_, i) => i !== at) })}><IconX size={16} /></ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Stack>
        </Paper>
      ))}
      {error('buttons') && <Text size="xs" c="red">{error('buttons')}</Text>}
      <Group justify="space-between">
        <Align value={block.align} disabled={disabled} onChange={(align) => onChange({ ...block, align })} />
        {block.buttons.length < LANDING_LIMITS.buttons && (
          <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} />} disabled={disabled}
            onClick={() => onChange({ ...block, buttons: [...block.buttons, { label: '', url: '', background: accent, text: '#FFFFFF' }] })}>
            {t('landings.button.add')}
          </Button>
        )}
      </Group>
    </>
  );
}

function Choice<V extends string>({ label, value, options, disabled, onChange }: { label: string; value: V; options: [V, string][]; disabled: boolean; onChange: (v: V) => void }) {
  return (
    <Stack gap={2} align="flex-start">
      <Text size="xs" c="dimmed">{label}</Text>
      <SegmentedControl size="xs" value={value} disabled={disabled} data={options.map(([v, l]) => ({ value: v, label: l }))} onChange={(v) => { const picked = options.find(([o]) => o === v); if (picked) onChange(picked[0]); }} />
    </Stack>
  );
}

function Align({ value, disabled, onChange }: { value: 'left' | 'center'; disabled: boolean; onChange: (v: 'left' | 'center') => void }) {
  const { t } = useT();
  return <Choice label={t('landings.align.label')} value={value} disabled={disabled} options={[['left', t('landings.align.left')], ['center', t('landings.align.center')]]} onChange={onChange} />;
}
