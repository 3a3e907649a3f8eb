/**
 * The message draft as a form, shared by the editor (editable, `onChange` given) and the review
 * screen (read-only, with the changed fields marked and its comment pins beside the fields):
 * name; the variants of an A/B test as tabs; the languages as tabs; the content fields of the type;
 * target, schedule, delivery and communication parameters. Every problem shows under its field and
 * in the list at the top. Which variant and language are on screen is the caller's (the preview
 * beside the form shows the same).
 */
import { useCallback, useMemo, type ReactNode } from 'react';
import { Badge, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { MessageDraft } from '@gd/shared/message/draft';
import { sendsOwnAudience, type DraftViolation } from '@gd/shared/message/validate';
import { useT } from '../../../i18n/useT.ts';
import { ContentFields } from './ContentFields.tsx';
import { Field, FormProvider, type FormContext } from './formContext.tsx';
import { LanguageTabs } from './LanguageTabs.tsx';
import { languageName } from './languages.ts';
import { ParametersField } from './ParametersField.tsx';
import { locateProblems, problemText, problemsByPath, type LocatedProblem } from './problems.ts';
import { ProblemsList, revealField } from './ProblemsList.tsx';
import { shownIn } from './selection.ts';
import { DeliveryField, ScheduleField, TargetField } from './SendingFields.tsx';
import { ConversionField } from './ConversionField.tsx';
import { VariantTabs } from './VariantTabs.tsx';

export interface MessageFormProps {
  draft: MessageDraft;
  /** Absent: read-only (nothing can be changed). */
  onChange?: (next: MessageDraft) => void;
  problems: readonly DraftViolation[];
  variantId: string;
  language: string;
  onVariantChange: (id: string) => void;
  onLanguageChange: (lang: string) => void;
  /** Paths changed by a review diff (shared diffDrafts), marked on their fields. */
  changedPaths?: ReadonlySet<string>;
  /** Something shown beside the field of a path (the review screen's comment pins). */
  renderFieldExtra?: (path: string) => ReactNode;
}

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} fz="md" fw={600} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

export function MessageForm(props: MessageFormProps) {
  const { draft, onChange, problems, variantId, language, onVariantChange, onLanguageChange, changedPaths, renderFieldExtra } = props;
  const { t, lang: ui } = useT();
  const readOnly = onChange === undefined;
  const located = useMemo(() => locateProblems(draft, problems), [draft, problems]);
  const byPath = useMemo(() => problemsByPath(located), [located]);
  const name = useCallback((code: string) => languageName(code, ui), [ui]);

  const edit = useCallback<FormContext['edit']>(
    (change) => {
      if (!onChange) return;
      const next = change(draft);
      if (next !== draft) onChange(next);
    },
    [draft, onChange],
  );
  const ctx = useMemo<FormContext>(
    () => ({
      draft,
      readOnly,
      edit,
      errorAt: (path) => {
        const list = byPath.get(path);
        return list ? list.map((v) => problemText(t, v, name)).join(' ') : undefined;
      },
      problemsUnder: (path) => located.filter((p) => p.path === path || p.path.startsWith(`${path}.`)).map((p) => p.violation),
      changedPaths,
      renderFieldExtra,
    }),
    [draft, readOnly, edit, byPath, located, changedPaths, renderFieldExtra, t, name],
  );

  const shown = shownIn(draft, variantId, language);
  const variantLabel = useCallback(
    (id: string) => {
      if (draft.type !== 'test_ab') return null;
      const v = draft.variants.find((x) => x.id === id);
      return t('messageEditor.variants.variant', { name: v?.name || id });
    },
    [draft, t],
  );
  const onShow = useCallback(
    (p: LocatedProblem) => {
      if (p.variantId) onVariantChange(p.variantId);
      if (p.language) onLanguageChange(p.language);
      revealField(p.path);
    },
    [onVariantChange, onLanguageChange],
  );

  const languages = (
    <LanguageTabs variantId={shown.variant.id} selected={shown.language} onSelect={onLanguageChange}>
      <ContentFields key={`${shown.variant.id}/${shown.language}`} variantId={shown.variant.id} lang={shown.language} content={shown.content} />
    </LanguageTabs>
  );

  return (
    <FormProvider value={ctx}>
      <Stack gap="md" data-testid="message-form" data-read-only={readOnly}>
        <ProblemsList located={located} variantLabel={variantLabel} onShow={onShow} />
        <Section title={t('messageEditor.section.general')}>
          <Group align="flex-start" gap="md" wrap="wrap">
            <Field path="name">
              <TextInput
                label={t('messageEditor.field.name')}
                description={t('messageEditor.field.nameHint')}
                inputWrapperOrder={['label', 'input', 'error', 'description']}
                value={draft.name}
                readOnly={readOnly}
                maxLength={120}
                miw={280}
                error={ctx.errorAt('name')}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  edit((d) => (d.name === value ? d : { ...d, name: value }));
                }}
                data-testid="message-name"
              />
            </Field>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('messageEditor.field.type')}
              </Text>
              <Badge variant="light" size="lg" radius="sm" tt="none" data-testid="message-type">
                {t(`messages.type.${draft.type}`)}
              </Badge>
            </Stack>
          </Group>
        </Section>
        <Section title={t('messageEditor.section.content')} testId="message-content">
          {draft.type === 'test_ab' ? (
            <VariantTabs selected={shown.variant} onSelect={onVariantChange}>
              {languages}
            </VariantTabs>
          ) : (
            languages
          )}
        </Section>
        {sendsOwnAudience(draft.origin) ? (
          <>
            <Section title={t('messageEditor.section.target')}>
              <TargetField />
            </Section>
            <Section title={t('messageEditor.section.schedule')}>
              <ScheduleField />
            </Section>
          </>
        ) : (
          // A journey step or a rule decides who receives it and when: no target or schedule of its own.
          <Section title={t('messageEditor.section.sentBy')} testId="message-sent-by">
            <Text size="sm" c="dimmed">{t(`messages.fields.originHint.${draft.origin}`)}</Text>
          </Section>
        )}
        <Section title={t('messageEditor.section.delivery')}>
          <DeliveryField />
        </Section>
        <Section title={t('messageAnalytics.settings.title')}>
          <ConversionField />
        </Section>
        <Section title={t('messageEditor.section.parameters')}>
          <Field path="parameters" exact>
            <ParametersField />
          </Field>
        </Section>
      </Stack>
    </FormProvider>
  );
}

/** Also the default export (the review screen imports it so). */
export default MessageForm;
