/**
 * The request schema of an endpoint, which the API client validates bodies with before sending.
 *
 * The foundation's endpoints (`@gd/shared/endpoints/core`: sign-in, the user, account, apps,
 * users, roles, test devices) are bundled with the login page. Any other endpoint's schema comes
 * from the full table, `@gd/shared/endpoints`, loaded with a dynamic import when a feature
 * endpoint is first called: every feature's zod schemas together outweigh the rest of the login
 * page's own code, and the login page calls none of them. One load is shared by concurrent calls;
 * a failed load (the chunk did not arrive) is forgotten, so the next call tries again, and is
 * reported as a network failure like any request that could not be sent.
 */
import type { Endpoint, EndpointName, Endpoints } from '@gd/shared/endpoints';
import { coreEndpoints } from '@gd/shared/endpoints/core';
import { ApiError } from './errors.ts';

export type RequestSchema = Endpoint['request'];

const isCore = (name: EndpointName): name is keyof typeof coreEndpoints => Object.hasOwn(coreEndpoints, name);
const requestOf = (endpoint: Endpoint): RequestSchema => endpoint.request;

/** Request schemas, with the full endpoint table loaded by `loadTable` on the first feature call. */
export function createRequestSchemas(loadTable: () => Promise<Endpoints>): (name: EndpointName) => Promise<RequestSchema> {
  let table: Promise<Endpoints> | null = null;
  return async (name) => {
    if (isCore(name)) return requestOf(coreEndpoints[name]);
    table ??= loadTable().catch((error: unknown) => {
      table = null;
      throw new ApiError('network', error instanceof Error ? error.message : 'The API description could not be loaded');
    });
    return requestOf((await table)[name]);
  };
}

/** The browser's request schemas: feature groups from the lazily loaded chunk of the full table. */
export const requestSchemaOf = createRequestSchemas(() => import('@gd/shared/endpoints').then((m) => m.endpoints));
