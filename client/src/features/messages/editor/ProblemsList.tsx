/**
 * Every problem of the draft in one list (the fields show theirs too, but only for the variant and
 * language on screen): each with where it is, and "Show" to switch to that variant and language and
 * bring the field into view.
 */
import { useState } from 'react';
import { Anchor, Group, List, Paper, Text, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconChevronDown, IconChevronUp, IconCircleCheck } from '@tabler/icons-react';
import { useT } from '../../../i18n/useT.ts';
import { languageName } from './languages.ts';
import { problemText, type LocatedProblem } from './problems.ts';

interface Props {
  located: readonly LocatedProblem[];
  variantLabel: (id: string) => string | null;
  onShow: (p: LocatedProblem) => void;
}

/** Brings the field of `path` into view and focuses its first input, once the form has rendered it. */
export function revealField(path: string): void {
  requestAnimationFrame(() => {
    const field = document.querySelector<HTMLElement>(`[data-testid="message-form"] [data-path="${CSS.escape(path)}"]`);
    if (!field) return;
    field.scrollIntoView({ block: 'center', behavior: 'smooth' });
    field.querySelector<HTMLElement>('input:not([type=hidden]), textarea, button')?.focus({ preventScroll: true });
  });
}

export function ProblemsList({ located, variantLabel, onShow }: Props) {
  const { t, lang } = useT();
  const [open, setOpen] = useState(true);
  const count = located.length;
  const name = (code: string) => languageName(code, lang);

  return (
    <Paper withBorder radius="md" px="md" py="xs" data-testid="message-problems" data-count={count} bg={count > 0 ? 'red.0' : undefined}>
      <UnstyledButton onClick={() => setOpen((o) => !o)} w="100%" aria-expanded={count > 0 ? open : undefined} disabled={count === 0} py={4}>
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            {count > 0 ? <IconAlertTriangle size={16} color="var(--mantine-color-red-6)" aria-hidden /> : <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />}
            <Text size="sm" fw={600} c={count > 0 ? 'red.8' : 'teal.8'}>
              {count > 0 ? t('messageEditor.problems.count', { count }) : t('messageEditor.problems.none')}
            </Text>
          </Group>
          {count > 0 && (open ? <IconChevronUp size={16} aria-hidden /> : <IconChevronDown size={16} aria-hidden />)}
        </Group>
      </UnstyledButton>
      {count > 0 && open && (
        <List size="sm" spacing={4} mt={6} mb={4} listStyleType="disc" withPadding>
          {located.map((p, i) => {
            const variant = p.variantId === null ? null : variantLabel(p.variantId);
            const where = p.language === null ? null : variant ? t('messageEditor.problems.where', { variant, language: name(p.language) }) : name(p.language);
            return (
              <List.Item key={`${p.path}-${p.violation.code}-${i}`} data-path={p.path} data-code={p.violation.code}>
                <Text span size="sm">
                  {problemText(t, p.violation, name)}
                </Text>
                {where && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {where}
                  </Text>
                )}
                <Anchor component="button" type="button" size="xs" ml={8} onClick={() => onShow(p)}>
                  {t('messageEditor.problems.show')}
                </Anchor>
              </List.Item>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
