/** The OpenAPI document, generated from the shared endpoint table (served at /api/openapi.json). */
import { z } from 'zod';
import { KoBody, endpoints } from '@gd/shared';

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
      parameters: params,
      ...request,
      responses: {
        200: { description: 'OK', content: { 'application/json': { schema: z.toJSONSchema(z.object({ status: z.literal('OK'), ...e.response }), { unrepresentable: 'any' }) } } },
        default: { description: 'KO with a catalogue code', content: { 'application/json': { schema: z.toJSONSchema(KoBody) } } },
      },
    };
  }
  return { openapi: '3.1.0', info: { title: 'Growthdeck API', version: '1' }, servers: [{ url: '/api' }], paths };
}
