/**
 * The pass designer: kind, texts, colours, the fields of each place (header, primary, secondary,
 * auxiliary, back) and the barcode, with the pass drawn live beside the form (PassPreview, the
 * same `resolvePass` the issued pass uses, with sample values). Checked with the shared schema
 * before sending; the API's refusals (a placeholder of the other kind, a name in use, a kind that
 * can no longer change) land on their fields.
 */
import { useState } from 'react';
import { ActionIcon, Box, Button, ColorInput, Group, Modal, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconX } from '@tabler/icons-react';
import { WalletDesignInput, type WalletDesign } from '@gd/shared/schemas/wallet';
import { BarcodeFormat, FIELD_GROUPS, FIELD_LIMITS, PassKind, type FieldGroup } from '@gd/shared/wallet/model';
import { api } from '../../api/client.ts';
import { useT } from '../../i18n/useT.ts';
import { FormError } from '../../ui/FormError.tsx';
import { schemaValidator, splitFailure } from '../../ui/forms.ts';
import { PassPreview } from './PassPreview.tsx';
import { designBody, initialDesignValues, placeholderList, sampleValues, switchKind, type DesignFormValues } from './walletForm.ts';

export function DesignDialog({ appId, appName, design, onClose, onSaved }: { appId: string; appName: string; design?: WalletDesign | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useT();
  const [failure, setFailure] = useState<unknown>(null);
  const form = useForm<DesignFormValues>({ initialValues: initialDesignValues(design, appName), validate: schemaValidator(WalletDesignInput, t) });
  const values = form.values;
  const kindLocked = !!design && design.passes > 0;

  const submit = form.onSubmit(async (v) => {
    setFailure(null);
    try {
      const body = designBody(v);
      if (design) await api.call('updateWalletDesign', { params: { appId, designId: design.id }, body });
      else await api.call('createWalletDesign', { params: { appId }, body });
      onSaved();
    } catch (error) {
      const paths = error && typeof error === 'object' && 'details' in error ? (error as { details: { path: string }[] }).details.map((d) => d.path) : [];
      const { fieldErrors, formError } = splitFailure(error, t, paths, (m) => (m === 'unknown_placeholder' ? t('wallet.designer.unknownPlaceholder') : m === 'kind_locked' ? t('wallet.designer.kindLocked') : undefined));
      form.setErrors(fieldErrors);
      setFailure(formError);
    }
  });

  const group = (g: FieldGroup) => {
    const list = values.design[g];
    return (
      <Stack key={g} gap={6}>
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={600}>{t(`wallet.designer.groups.${g}`)}</Text>
          <Button
            size="compact-xs" variant="subtle" leftSection={<IconPlus size={12} />} disabled={list.length >= FIELD_LIMITS[g]}
            onClick={() => form.insertListItem(`design.${g}`, { label: '', value: '' })} data-testid={`add-${g}`}
          >
            {t('wallet.designer.addField')}
          </Button>
        </Group>
        {list.map((_, i) => (
          <Group key={i} gap={6} wrap="nowrap" align="flex-start">
            <TextInput size="xs" w="38%" aria-label={`${t(`wallet.designer.groups.${g}`)} ${i + 1}: ${t('wallet.designer.fieldLabel')}`} placeholder={t('wallet.designer.fieldLabel')} {...form.getInputProps(`design.${g}.${i}.label`)} />
            <TextInput size="xs" style={{ flex: 1 }} aria-label={`${t(`wallet.designer.groups.${g}`)} ${i + 1}: ${t('wallet.designer.fieldValue')}`} placeholder={t('wallet.designer.fieldValue')} {...form.getInputProps(`design.${g}.${i}.value`)} />
            <Tooltip label={t('wallet.designer.removeField')}>
              <ActionIcon variant="subtle" color="gray" mt={2} aria-label={t('wallet.designer.removeField')} onClick={() => form.removeListItem(`design.${g}`, i)}>
                <IconX size={14} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
      </Stack>
    );
  };

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{design ? t('wallet.designs.editTitle') : t('wallet.designs.addTitle')}</Text>} size={1000}>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" gap="xl" wrap="wrap">
          <Stack gap="sm" style={{ flex: '1 1 440px', minWidth: 0 }}>
            <FormError error={failure} />
            <TextInput label={t('wallet.designer.name')} placeholder={t('wallet.designer.namePlaceholder')} required data-autofocus {...form.getInputProps('name')} />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="design-kind-label">{t('wallet.designer.kind')}</Text>
              <SegmentedControl
                aria-labelledby="design-kind-label" fullWidth disabled={kindLocked}
                data={PassKind.options.map((k) => ({ value: k, label: t(`wallet.kind.${k}`) }))}
                value={values.kind}
                onChange={(k) => form.setValues(switchKind(form.values, PassKind.parse(k), !design))}
              />
              <Text size="xs" c="dimmed">{kindLocked ? t('wallet.designer.kindLocked') : t(`wallet.kindHint.${values.kind}`)}</Text>
            </Stack>
            <SimpleGrid cols={2} spacing="sm">
              <TextInput label={t('wallet.designer.organizationName')} required {...form.getInputProps('design.organizationName')} />
              <TextInput label={t('wallet.designer.logoText')} {...form.getInputProps('design.logoText')} />
            </SimpleGrid>
            <TextInput label={t('wallet.designer.description')} description={t('wallet.designer.descriptionHint')} required {...form.getInputProps('design.description')} />
            <SimpleGrid cols={3} spacing="sm">
              <ColorInput label={t('wallet.designer.backgroundColor')} format="hex" {...form.getInputProps('design.backgroundColor')} />
              <ColorInput label={t('wallet.designer.foregroundColor')} format="hex" {...form.getInputProps('design.foregroundColor')} />
              <ColorInput label={t('wallet.designer.labelColor')} format="hex" {...form.getInputProps('design.labelColor')} />
            </SimpleGrid>
            <Group gap="sm" align="flex-end" wrap="nowrap">
              <Select
                label={t('wallet.designer.barcodeFormat')} allowDeselect={false} w={180}
                data={BarcodeFormat.options.map((f) => ({ value: f, label: t(`wallet.barcode.${f}`) }))}
                {...form.getInputProps('design.barcodeFormat')}
              />
              <Switch mb={8} label={t('wallet.designer.showCode')} {...form.getInputProps('design.showCode', { type: 'checkbox' })} />
            </Group>
            <Text size="xs" c="dimmed" className="gd-mono" data-testid="placeholders">{t('wallet.designer.placeholders', { list: placeholderList(values.kind) })}</Text>
            <ScrollArea.Autosize mah={340} offsetScrollbars>
              <Stack gap="md">{FIELD_GROUPS.map(group)}</Stack>
            </ScrollArea.Autosize>
          </Stack>
          <Box style={{ flex: '0 0 320px' }}>
            <Text size="sm" fw={600} mb={2}>{t('wallet.designer.preview')}</Text>
            <Text size="xs" c="dimmed" mb="sm">{t('wallet.designer.previewHint')}</Text>
            <PassPreview design={values.design} values={sampleValues(values.kind)} unlimited={t('wallet.issue.unlimited')} />
          </Box>
        </Group>
        <Group justify="flex-end" gap="sm" mt="lg">
          <Button variant="default" onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" loading={form.submitting} data-testid="design-save">{design ? t('common.save') : t('wallet.designs.add')}</Button>
        </Group>
      </form>
    </Modal>
  );
}
