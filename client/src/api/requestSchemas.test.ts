import { describe, expect, it, vi } from 'vitest';
import { endpoints, type Endpoint, type EndpointName, type Endpoints } from '@gd/shared/endpoints';
import { coreEndpoints } from '@gd/shared/endpoints/core';
import { ApiError } from './errors.ts';
import { createRequestSchemas, requestSchemaOf } from './requestSchemas.ts';

const names = Object.keys(endpoints) as EndpointName[];
const requestOf = (name: EndpointName) => (endpoints[name] as Endpoint).request;
const aFeature: EndpointName = 'createTag';

describe('request schemas', () => {
  it("are the full table's for every endpoint, core and feature", async () => {
    for (const name of names) expect(await requestSchemaOf(name), name).toBe(requestOf(name));
    expect(names.some((n) => !(n in coreEndpoints) && requestOf(n))).toBe(true);
  });

  it('come from the core group without loading the full table', async () => {
    const load = vi.fn(() => Promise.resolve(endpoints));
    const schemaOf = createRequestSchemas(load);
    for (const name of Object.keys(coreEndpoints) as EndpointName[]) expect(await schemaOf(name)).toBe(requestOf(name));
    expect(load).not.toHaveBeenCalled();
  });

  it('load the full table once for every feature call, concurrent ones included', async () => {
    const load = vi.fn(() => Promise.resolve(endpoints));
    const schemaOf = createRequestSchemas(load);
    const schemas = await Promise.all([schemaOf(aFeature), schemaOf('createSegment'), schemaOf('listEvents')]);
    expect(schemas).toEqual([requestOf(aFeature), requestOf('createSegment'), undefined]);
    await schemaOf('updateTag');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('report a failed load as a network failure and try again on the next call', async () => {
    let attempts = 0;
    const load = vi.fn((): Promise<Endpoints> => (++attempts === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : Promise.resolve(endpoints)));
    const schemaOf = createRequestSchemas(load);
    const failure = await schemaOf(aFeature).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ code: 'network', message: /dynamically imported/ });
    expect(await schemaOf(aFeature)).toBe(requestOf(aFeature));
    expect(load).toHaveBeenCalledTimes(2);
  });
});
