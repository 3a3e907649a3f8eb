/**
 * The content fields of one variant in one language, those its type uses (shared fieldsFor): texts,
 * the HTML body as a code area, links, buttons, position, timings, coupon and e-mail fields.
 */
import { Input, NumberInput, SegmentedControl, Stack, Text, TextInput, Textarea, type TextInputProps, type TextareaProps } from '@mantine/core';
import { BUILT_IN_PLACEHOLDERS } from '@gd/shared/message/validate';
import { fieldsFor, positionsFor, type MessageContent, type MessageField } from '@gd/shared/message/model';
import { useT } from '../../../i18n/useT.ts';
import { ButtonsField } from './ButtonsField.tsx';
import { useKeptCaret } from './caret.ts';
import { setContentField } from './draftEdits.ts';
import { Field, useForm } from './formContext.tsx';
import { contentPath } from './problems.ts';

const LIMITS: Partial<Record<MessageField, number>> = { title: 500, message: 5000, subject: 500, image_url: 2000, target_url: 2000, promo_code: 200, sender_email: 254, sender_name: 200, bcc: 2000, template_id: 200 };
const MAX_SECONDS = 10 * 366 * 86_400;

/** Text fields whose caret stays put when a co-editor's typing changes the text (caret.ts). */
function CaretTextInput(props: TextInputProps & { value: string }) {
  const caret = useKeptCaret<HTMLInputElement>(props.value);
  return <TextInput {...props} {...caret} />;
}
function CaretTextarea(props: TextareaProps & { value: string }) {
  const caret = useKeptCaret<HTMLTextAreaElement>(props.value);
  return <Textarea {...props} {...caret} />;
}

export function ContentFields({ variantId, lang, content }: { variantId: string; lang: string; content: MessageContent }) {
  const { t } = useT();
  const { readOnly, edit, errorAt } = useForm();
  const path = (field: string) => contentPath(variantId, lang, field);
  const set = <K extends keyof MessageContent>(field: K, value: MessageContent[K]) => edit((d) => setContentField(d, variantId, lang, field, value));
  const fields = fieldsFor(content.type).filter((f) => f !== 'type');
  const usesTexts = fields.some((f) => f === 'title' || f === 'message' || f === 'subject' || f === 'html_body');

  const text = (field: 'title' | 'subject' | 'image_url' | 'target_url' | 'promo_code' | 'sender_email' | 'sender_name' | 'bcc', extra: { description?: string; type?: string; placeholder?: string } = {}) => (
    <Field key={field} path={path(field)}>
      <CaretTextInput
        label={t(`messageEditor.field.${field}`)}
        value={content[field]}
        readOnly={readOnly}
        maxLength={LIMITS[field]}
        error={errorAt(path(field))}
        onChange={(e) => set(field, e.currentTarget.value)}
        data-field={field}
        {...extra}
      />
    </Field>
  );
  const seconds = (field: 'shown_time' | 'life' | 'max_redeems', description: string) => (
    <Field key={field} path={path(field)}>
      <NumberInput
        label={t(`messageEditor.field.${field}`)}
        description={description}
        value={content[field] ?? ''}
        readOnly={readOnly}
        min={0}
        max={field === 'max_redeems' ? 1_000_000_000 : MAX_SECONDS}
        allowDecimal={false}
        allowNegative={false}
        error={errorAt(path(field))}
        onChange={(v) => set(field, typeof v === 'number' ? Math.max(0, Math.round(v)) : null)}
        data-field={field}
      />
    </Field>
  );

  const render = (field: MessageField) => {
    switch (field) {
      case 'title':
      case 'subject':
        return text(field);
      case 'image_url':
        return text(field, { type: 'url', placeholder: 'https://' });
      case 'target_url':
        return text(field, { description: t('messageEditor.field.target_urlHint'), placeholder: 'https://' });
      case 'promo_code':
      case 'sender_name':
        return text(field);
      case 'sender_email':
        return text(field, { type: 'email' });
      case 'bcc':
        return text(field, { description: t('messageEditor.field.bccHint') });
      case 'message':
        return (
          <Field key={field} path={path(field)}>
            <CaretTextarea
              label={t('messageEditor.field.message')}
              value={content.message}
              readOnly={readOnly}
              autosize
              minRows={3}
              maxRows={10}
              maxLength={LIMITS.message}
              error={errorAt(path(field))}
              onChange={(e) => set('message', e.currentTarget.value)}
              data-field={field}
            />
          </Field>
        );
      case 'html_body':
        return (
          <Field key={field} path={path(field)}>
            <CaretTextarea
              label={t('messageEditor.field.html_body')}
              description={t('messageEditor.field.html_bodyHint')}
              value={content.html_body}
              readOnly={readOnly}
              autosize
              minRows={content.type === 'email' ? 10 : 4}
              maxRows={24}
              spellCheck={false}
              autoCapitalize="off"
              autoCorrect="off"
              placeholder="<html>…</html>"
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-xs)', lineHeight: 1.5 } }}
              error={errorAt(path(field))}
              onChange={(e) => set('html_body', e.currentTarget.value)}
              data-field={field}
            />
          </Field>
        );
      case 'template_id':
        return (
          <Field key={field} path={path(field)}>
            <TextInput
              label={t('messageEditor.field.template_id')}
              description={t('messageEditor.field.template_idHint')}
              value={content.template_id ?? ''}
              readOnly={readOnly}
              maxLength={LIMITS.template_id}
              error={errorAt(path(field))}
              onChange={(e) => set('template_id', e.currentTarget.value.trim() === '' ? null : e.currentTarget.value)}
              data-field={field}
            />
          </Field>
        );
      case 'buttons':
        return (
          <Field key={field} path={path(field)}>
            <ButtonsField variantId={variantId} lang={lang} buttons={content.buttons} />
          </Field>
        );
      case 'position': {
        const positions = positionsFor(content.type);
        const error = errorAt(path(field));
        return (
          <Field key={field} path={path(field)}>
            <Input.Wrapper label={t('messageEditor.field.position')} error={error} labelElement="div">
              <div>
                <SegmentedControl
                  aria-label={t('messageEditor.field.position')}
                  data={positions.map((p) => ({ value: p, label: t(`messageEditor.position.${p}`) }))}
                  value={content.position ?? ''}
                  readOnly={readOnly}
                  onChange={(v) => set('position', positions.find((p) => p === v) ?? null)}
                  data-field={field}
                />
              </div>
            </Input.Wrapper>
          </Field>
        );
      }
      case 'shown_time':
        return seconds(field, t('messageEditor.field.shown_timeHint'));
      case 'life':
        return seconds(field, t('messageEditor.field.lifeHint'));
      case 'max_redeems':
        return seconds(field, t('messageEditor.field.max_redeemsHint'));
      case 'type':
        return null;
      default: {
        const never: never = field;
        throw new Error(`no field for ${String(never)}`);
      }
    }
  };

  return (
    <Stack gap="sm" data-testid="content-fields" data-variant={variantId} data-language={lang}>
      {usesTexts && !readOnly && (
        <Text size="xs" c="dimmed">
          {t('messageEditor.field.placeholders', { example: BUILT_IN_PLACEHOLDERS.slice(0, 2).map((p) => `{{${p}}}`).join(', ') })}
        </Text>
      )}
      {fields.map(render)}
    </Stack>
  );
}
