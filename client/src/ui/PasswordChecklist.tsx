/** Live password strength checklist from the shared rule (`passwordProblems`). */
import { List, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconPointFilled } from '@tabler/icons-react';
import { PASSWORD_MIN_LENGTH, passwordProblems, type PasswordRule } from '@gd/shared/formats';
import { useT } from '../i18n/useT.ts';
import type { TKey } from '../i18n/keys.ts';

const RULES: readonly PasswordRule[] = ['length', 'upper', 'lower', 'digit', 'special'];
const LABEL: Record<PasswordRule, TKey> = {
  length: 'password.rules.length',
  upper: 'password.rules.upper',
  lower: 'password.rules.lower',
  digit: 'password.rules.digit',
  special: 'password.rules.special',
};

export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const { t } = useT();
  const problems = new Set(passwordProblems(password));
  return (
    <List id={id} size="xs" spacing={4} center aria-label={t('password.rules.title')} data-testid="password-checklist">
      {RULES.map((rule) => {
        const met = !problems.has(rule);
        return (
          <List.Item
            key={rule}
            c={met ? 'teal.8' : 'dimmed'}
            data-met={met}
            icon={
              <ThemeIcon size={16} radius="xl" color={met ? 'teal' : 'gray'} variant={met ? 'filled' : 'light'}>
                {met ? <IconCheck size={11} stroke={3} /> : <IconPointFilled size={10} />}
              </ThemeIcon>
            }
          >
            {t(LABEL[rule], { min: PASSWORD_MIN_LENGTH })}
            {met && <VisuallyHidden> ({t('password.rules.met')})</VisuallyHidden>}
          </List.Item>
        );
      })}
    </List>
  );
}
