/**
 * Categories of the account (schemas/categories.ts: what they are and the decisions taken) and
 * their assignments to apps, campaigns and messages.
 *
 * Failures: 10001 for a bad field (a colour not #RRGGBB, no entity type, a category that does not
 * apply to the entity's type); 30 for a name in use in the account; 10 for a category, app,
 * campaign or message that is not there (another account's or another app's answers alike);
 * 10004 without the permission (editing the entity, for an assignment).
 */
import { z } from 'zod';
import {
  Category, CategoryAssignment, CategoryAssignmentInput, CategoryAssignmentsQuery, CategoryInput, CategoryListQuery,
} from '../schemas/categories.ts';
import { ep, none } from './define.ts';

const EDIT = 'api:categories.edit' as const;
/** Reading an app's assignments: whoever sees one of the lists or screens that show them. */
const READ_ASSIGNMENTS = {
  or: ['route:/manage/categories', 'route:/user/app', 'ui:apptracker.view', 'ui:message.view', 'ui:message.view:owner', 'ui:message.read'],
} as const;
/** Assigning: the right to edit some entity; the route checks the one of the entity's type. */
const ASSIGN = { or: ['ui:app.edit', 'ui:apptracker.edit', 'ui:apptracker.edit:owner', 'ui:message.edit', 'ui:message.edit:owner'] } as const;

export const categoryEndpoints = {
  listCategories: ep({
    method: 'GET', path: '/categories', auth: 'session', query: CategoryListQuery, response: { categories: z.array(Category) },
    summary: "The account's categories by name, with how many apps, campaigns and messages carry each (query: entityType, only those that apply to it)",
  }),
  createCategory: ep({ method: 'POST', path: '/categories', summary: 'Create a category (a name in use: 30; a colour not #RRGGBB: 10001)', auth: EDIT, request: CategoryInput, response: { category: Category } }),
  updateCategory: ep({
    method: 'PUT', path: '/categories/:categoryId', auth: EDIT, request: CategoryInput, response: { category: Category },
    summary: 'Rename a category, change its colour or its entity types (the assignments of a type it no longer applies to are removed)',
  }),
  deleteCategory: ep({ method: 'DELETE', path: '/categories/:categoryId', summary: 'Delete a category and its assignments', auth: EDIT, response: none }),
  appCategories: ep({
    method: 'GET', path: '/category-assignments/apps', summary: "The categories of every app of the account (the apps list)", auth: 'route:/user/account/apps',
    response: { assignments: z.array(CategoryAssignment) },
  }),
  categoryAssignments: ep({
    method: 'GET', path: '/apps/:appId/category-assignments', auth: READ_ASSIGNMENTS, query: CategoryAssignmentsQuery, response: { assignments: z.array(CategoryAssignment) },
    summary: "The categories of the app's entities of a type: the app itself, its campaigns (apptracker and message campaigns) or its messages",
  }),
  setCategoryAssignments: ep({
    method: 'PUT', path: '/apps/:appId/category-assignments', auth: ASSIGN, request: CategoryAssignmentInput, response: { assignment: CategoryAssignment },
    summary: "Replace an entity's categories (the app in the path, or one of its campaigns or messages); needs the right to edit that entity",
  }),
} as const;
