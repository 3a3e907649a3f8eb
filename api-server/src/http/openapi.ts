/** The OpenAPI document, generated from the shared endpoint table (served at /api/openapi.json). */
import { z } from 'zod';
import { APP_KEY_HEADER, KoBody, endpoints, type Endpoint } from '@gd/shared';

/** Query parameters of an endpoint with a `query` object schema, one per property. */
function queryParameters(e: Endpoint): object[] {
  if (!(e.query instanceof z.ZodObject)) return [];
  const json = z.toJSONSchema(e.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, object>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({ name, in: 'query', required: json.required?.includes(name) ?? false, schema }));
}

export function openApiDocument(): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const [name, e] of Object.entries(endpoints)) {
    const path = e.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const params = [...e.path.matchAll(/:([A-Za-z]+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    const request = 'request' in e && e.request ? { requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(e.request, { io: 'input', unrepresentable: 'any' }) } } } } : {};
    paths[path] ??= {};
    paths[path][e.method.toLowerCase()] = {
      operationId: name,
      summary: e.summary,
      'x-permission': e.auth,
      parameters: [...params, ...queryParameters(e)],
      ...(e.auth === 'appKey' ? { security: [{ appKey: [] }] } : {}),
      ...request,
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: z.toJSONSchema(z.object({ status: z.literal('OK'), ...e.response }), { unrepresentable: 'any' }) } } },
        default: { description: 'KO with a catalogue code', content: { 'application/json': { schema: z.toJSONSchema(KoBody) } } },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Growthdeck API', version: '1' }, servers: [{ url: '/api' }], paths,
    components: { securitySchemes: { appKey: { type: 'apiKey', in: 'header', name: APP_KEY_HEADER } } } };
}
