/** Who else is in this journey: one avatar per person, in the colour the server gave them (nothing shown when alone). */
import { Avatar, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { distinctPeople, type Peer } from './presence.ts';
import { initials } from '../ui/initials.ts';

const SHOWN = 4;

export function PresenceAvatars({ peers }: { peers: readonly Peer[] }) {
  const { t } = useT();
  const people = distinctPeople(peers);
  const label = people.length === 0 ? t('journeys.editor.alone') : t('journeys.editor.hereCount', { count: people.length });
  return (
    <Group gap={6} wrap="nowrap" role="group" aria-label={`${t('journeys.editor.here')}: ${label}`} data-testid="presence" data-count={people.length}>
      {people.length === 0 ? (
        <VisuallyHidden>{label}</VisuallyHidden>
      ) : (
        <Tooltip.Group openDelay={150} closeDelay={80}>
          <Avatar.Group spacing={8}>
            {people.slice(0, SHOWN).map((p) => (
              <Tooltip key={p.userId} label={p.name} withArrow>
                <Avatar
                  size={30}
                  radius="xl"
                  variant="filled"
                  color={p.color}
                  alt={p.name}
                  aria-label={p.name}
                  data-testid="presence-avatar"
                  data-name={p.name}
                  style={{ outline: `2px solid ${p.color}`, outlineOffset: 1 }}
                >
                  {initials(p.name)}
                </Avatar>
              </Tooltip>
            ))}
            {people.length > SHOWN && (
              <Tooltip label={people.slice(SHOWN).map((p) => p.name).join(', ')} withArrow>
                <Avatar size={30} radius="xl">
                  +{people.length - SHOWN}
                </Avatar>
              </Tooltip>
            )}
          </Avatar.Group>
        </Tooltip.Group>
      )}
    </Group>
  );
}
