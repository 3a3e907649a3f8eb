/**
 * Actions the user's role does not allow stay visible but disabled, with a tooltip saying why
 * (`data-disabled` rather than `disabled`, so the tooltip still opens on hover and focus).
 */
import type { ComponentPropsWithoutRef, MouseEvent, ReactNode } from 'react';
import { ActionIcon, Button, Group, Tooltip, type ActionIconProps, type ButtonProps } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useT } from '../i18n/useT.ts';

type Gate = { allowed: boolean; reason?: string };
type NativeButton = Omit<ComponentPropsWithoutRef<'button'>, 'color' | 'style'>;

const swallow = (event: MouseEvent) => event.preventDefault();

export function GatedButton({ allowed, reason, onClick, ...props }: ButtonProps & NativeButton & Gate) {
  const { t } = useT();
  if (allowed) return <Button onClick={onClick} {...props} />;
  return (
    <Tooltip label={reason ?? t('permissions.denied')}>
      <Button {...props} data-disabled aria-disabled="true" onClick={swallow} />
    </Tooltip>
  );
}

/** An icon action: its label is the accessible name and the tooltip. */
export function GatedIcon({ allowed, reason, label, onClick, ...props }: ActionIconProps & NativeButton & Gate & { label: string }) {
  const { t } = useT();
  return (
    <Tooltip label={allowed ? label : `${label}: ${reason ?? t('permissions.denied')}`}>
      {allowed ? (
        <ActionIcon variant="subtle" color="gray" aria-label={label} onClick={onClick} {...props} />
      ) : (
        <ActionIcon variant="subtle" color="gray" aria-label={label} {...props} data-disabled aria-disabled="true" onClick={swallow} />
      )}
    </Tooltip>
  );
}

type RowAction = Gate & { onClick: () => void };

/**
 * A table row's edit and delete icons, right-aligned, each gated on its own; `before` holds the
 * row's other actions, shown first.
 */
export function EditDeleteIcons({ edit, remove, before }: { edit: RowAction; remove: RowAction; before?: ReactNode }) {
  const { t } = useT();
  return (
    <Group gap={2} justify="flex-end" wrap="nowrap">
      {before}
      <GatedIcon allowed={edit.allowed} reason={edit.reason} label={t('common.edit')} onClick={edit.onClick}>
        <IconPencil size={16} />
      </GatedIcon>
      <GatedIcon allowed={remove.allowed} reason={remove.reason} label={t('common.delete')} color="red" onClick={remove.onClick}>
        <IconTrash size={16} />
      </GatedIcon>
    </Group>
  );
}

/** A form whose changes can be reset (Mantine useForm's shape). */
interface ResettableForm { isDirty(): boolean; submitting: boolean; reset(): void }

/**
 * The Reset and Save buttons of a settings form (fragment: the caller places them in a header or a
 * row). Reset is off until something changed; Save submits the form, gated by `allowed`, and with
 * `onlyWhenChanged` off until something changed too.
 */
export function ResetSave({ form, allowed = true, onlyWhenChanged = false }: { form: ResettableForm; allowed?: boolean; onlyWhenChanged?: boolean }) {
  const { t } = useT();
  return (
    <>
      <Button variant="default" disabled={!form.isDirty() || form.submitting} onClick={() => form.reset()}>
        {t('common.reset')}
      </Button>
      <GatedButton allowed={allowed} type="submit" loading={form.submitting} {...(onlyWhenChanged ? { disabled: !form.isDirty() } : {})}>
        {t('common.save')}
      </GatedButton>
    </>
  );
}
