/**
 * Who else is in this journey: one avatar per person, in the colour the server gave them (nothing
 * shown when alone). With `onFollow` (an editor with a canvas), an avatar is a button: follow that
 * person's view; the followed person's avatar is marked, and a second click stops following.
 */
import { Avatar, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { useT } from '../i18n/useT.ts';
import { distinctPeople, type Peer } from './presence.ts';
import { initials } from '../ui/initials.ts';

const SHOWN = 4;

export interface Follow {
  following: number | null;
  onFollow: (clientId: number | null) => void;
}

export function PresenceAvatars({ peers, follow }: { peers: readonly Peer[]; follow?: Follow | undefined }) {
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
            {people.slice(0, SHOWN).map((p) => {
              const followed = follow?.following === p.clientId;
              const label = follow ? t(followed ? 'journeys.editor.stopFollowing' : 'journeys.editor.follow', { name: p.name }) : p.name;
              return (
                <Tooltip key={p.userId} label={label} withArrow>
                  <Avatar
                    size={30}
                    radius="xl"
                    variant="filled"
                    color={p.color}
                    alt={p.name}
                    aria-label={label}
                    data-testid="presence-avatar"
                    data-name={p.name}
                    data-following={followed}
                    {...(follow
                      ? { component: 'button' as const, type: 'button' as const, 'aria-pressed': followed, onClick: () => follow.onFollow(followed ? null : p.clientId) }
                      : {})}
                    style={{ outline: `2px solid ${p.color}`, outlineOffset: followed ? 3 : 1, cursor: follow ? 'pointer' : undefined, border: 0, padding: 0 }}
                  >
                    {initials(p.name)}
                  </Avatar>
                </Tooltip>
              );
            })}
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
