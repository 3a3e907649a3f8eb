/**
 * Links (schemas/links.ts): an app's tracking links and powlinks, and each link's latest clicks.
 * The link host itself (`GET /l/:code`) is not under /api and not in this table: it answers
 * redirects, and 10026 for an unknown or inactive code (api-server/src/features/links/host.ts).
 *
 * Permissions: read with either screen's route key (/acquisition/links, /acquisition/powlinks);
 * changed with the apptracker keys, as a link is part of its campaign (create, edit, delete, with
 * the owner variants for the links one created).
 *
 * Failures: 10001 with details for bad input; 10 for an id of nothing, of another app or of
 * another account (link or campaign); 30 for a code in use.
 */
import { z } from 'zod';
import { Link, LinkClick, LinkInput, LinkUpdate, LinksQuery } from '../schemas/links.ts';
import { ep, none } from './define.ts';

const LINKS = '/apps/:appId/acquisition/links';
const READ = { or: ['route:/acquisition/links', 'route:/acquisition/powlinks'] } as const;

export const linkEndpoints = {
  links: ep({
    method: 'GET', path: LINKS, auth: READ, query: LinksQuery, response: { links: z.array(Link), baseUrl: z.string() },
    summary: "The app's links (tracking links and powlinks, optionally one kind or one campaign's) with their click counts, and the link host's base address",
  }),
  link: ep({ method: 'GET', path: `${LINKS}/:linkId`, auth: READ, response: { link: Link }, summary: 'One link with its click counts' }),
  createLink: ep({
    method: 'POST', path: LINKS, auth: 'ui:apptracker.create', request: LinkInput, response: { link: Link },
    summary: 'Create a tracking link or powlink for a campaign of the app (code generated unless given)',
  }),
  updateLink: ep({
    method: 'PUT', path: `${LINKS}/:linkId`, auth: { or: ['ui:apptracker.edit', 'ui:apptracker.edit:owner'] }, request: LinkUpdate, response: { link: Link },
    summary: "Change a link's campaign, name, parameters, destinations, deep link or active state (its code and kind stay)",
  }),
  deleteLink: ep({
    method: 'DELETE', path: `${LINKS}/:linkId`, auth: { or: ['ui:apptracker.delete', 'ui:apptracker.delete:owner'] }, response: none,
    summary: 'Delete a link: its code stops answering (10026); its clicks stay for the figures',
  }),
  linkClicks: ep({
    method: 'GET', path: `${LINKS}/:linkId/clicks`, auth: READ, response: { clicks: z.array(LinkClick) },
    summary: "A link's latest clicks (at most 100, newest first), bots included and flagged",
  }),
};
