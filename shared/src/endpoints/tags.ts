/** Tags of an app (/manage/tags): ui:tags.view to read, ui:tags.edit to change. */
import { z } from 'zod';
import { ep, none } from './define.ts';
import { Tag, TagInput, TagUpdate } from '../schemas/tags.ts';

export const tagEndpoints = {
  listTags: ep({ method: 'GET', path: '/apps/:appId/tags', summary: 'User and audience tags of an app, with how many people have a value', auth: 'ui:tags.view', response: { tags: z.array(Tag) } }),
  createTag: ep({ method: 'POST', path: '/apps/:appId/tags', summary: 'Create a tag', auth: 'ui:tags.edit', request: TagInput, response: { tag: Tag } }),
  updateTag: ep({ method: 'PUT', path: '/apps/:appId/tags/:tagId', summary: 'Rename a tag, describe it, or change its type while it has no values', auth: 'ui:tags.edit', request: TagUpdate, response: { tag: Tag } }),
  deleteTag: ep({ method: 'DELETE', path: '/apps/:appId/tags/:tagId', summary: "Delete a tag and everyone's value of it", auth: 'ui:tags.edit', response: none }),
} as const;
