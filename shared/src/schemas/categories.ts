/**
 * Categories (/manage/categories; issue 17, piece D): labels of the account that group apps,
 * campaigns and messages, used by the list filters and by the `app_cats` postback macro.
 *
 * Decisions where SPEC is silent ("not shown"), as a user of such a product would expect:
 * - A category belongs to the account (every app sees the same ones), like mail providers; its
 *   name is unique in the account whatever the case (30 otherwise); its colour is `#RRGGBB`
 *   (SPEC §5, 10001 otherwise), stored as typed and shown as a dot beside the name.
 * - It applies to one or more entity types: `app`, `campaign` (apptracker campaigns and the
 *   campaigns messages belong to) and `message`. Pickers and filters offer only the categories of
 *   their entity type; assigning a category to a type it does not apply to is refused (10001).
 *   Removing a type from a category removes its assignments of that type, in the same transaction.
 * - Assignments are many-to-many and replaced as a whole per entity (the picker sends the full
 *   list). Deleting a category removes its assignments; deleting an app, campaign or message
 *   removes theirs (migration 051). At most MAX_CATEGORIES_PER_ENTITY per entity.
 * - A list filter names one category (`categoryId`): the items with it. On the messages list a
 *   message matches when it or its campaign has the category.
 * - Everyone signed in to the account reads the categories (they label lists every role sees);
 *   creating, editing and deleting them needs `api:categories.edit`; assigning them to an item
 *   needs the right to edit that item (app settings `ui:app.edit`; a campaign: apptracker edit, or
 *   message edit for a message campaign; a message: message edit), owner variants included.
 * - `app_cats` is the app's category names in alphabetical order, joined by commas (no spaces).
 * - The account has at most MAX_CATEGORIES categories.
 */
import { z } from 'zod';
import { isColour } from '../formats.ts';
import { Name } from './common.ts';

export const CategoryEntityType = z.enum(['app', 'campaign', 'message']);
export type CategoryEntityType = z.infer<typeof CategoryEntityType>;

export const MAX_CATEGORIES = 200;
export const MAX_CATEGORIES_PER_ENTITY = 20;
export const CATEGORY_NAME_MAX = 60;

export const Colour = z.string().trim().refine(isColour, { message: 'A colour is # followed by 6 hex digits (#RRGGBB)', params: { rule: 'colour' } });

export const Category = z.object({
  id: z.string().uuid(),
  name: z.string(),
  colour: z.string(),
  entityTypes: z.array(CategoryEntityType),
  /** How many items of each type carry it. */
  counts: z.object({ app: z.number().int(), campaign: z.number().int(), message: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Category = z.infer<typeof Category>;

export const CategoryInput = z.object({
  name: Name.max(CATEGORY_NAME_MAX),
  colour: Colour,
  entityTypes: z.array(CategoryEntityType).min(1, 'Choose at least one').transform((types) => CategoryEntityType.options.filter((t) => types.includes(t))),
});
export type CategoryInput = z.input<typeof CategoryInput>;

export const CategoryListQuery = z.object({
  /** Only the categories that apply to this entity type. */
  entityType: CategoryEntityType.optional(),
});

/** A list filter's query parameter (apps, apptracker campaigns, messages). */
export const CategoryFilterQuery = z.object({ categoryId: z.string().uuid().optional() });

export const CategoryAssignmentsQuery = z.object({ entityType: CategoryEntityType });

/** The categories of one entity. */
export const CategoryAssignment = z.object({ entityId: z.string().uuid(), categoryIds: z.array(z.string().uuid()) });
export type CategoryAssignment = z.infer<typeof CategoryAssignment>;

/** Replaces an entity's categories (the app in the path, or one of its campaigns or messages). */
export const CategoryAssignmentInput = z.object({
  entityType: CategoryEntityType,
  entityId: z.string().uuid(),
  categoryIds: z.array(z.string().uuid()).max(MAX_CATEGORIES_PER_ENTITY).transform((ids) => [...new Set(ids.map((id) => id.toLowerCase()))]),
});
export type CategoryAssignmentInput = z.input<typeof CategoryAssignmentInput>;
