/**
 * A loopback Google Ads API (REST) for Customer Match, as documented:
 *
 * - `POST /{version}/customers/{customerId}/userLists:mutate` with
 *   `{ operations: [{ create: { name, description?, membershipLifeSpan?, crmBasedUserList: {
 *   uploadKeyType: 'CONTACT_INFO' | 'CRM_ID' | 'MOBILE_ADVERTISING_ID', dataSourceType? } } }] }`
 *   answers `{ results: [{ resourceName: 'customers/{id}/userLists/{listId}' }] }`.
 * - OfflineUserDataJobService: `POST .../customers/{customerId}/offlineUserDataJobs:create` with
 *   `{ job: { type: 'CUSTOMER_MATCH_USER_LIST', customerMatchUserListMetadata: { userList } } }`
 *   answers `{ resourceName: 'customers/{id}/offlineUserDataJobs/{jobId}' }`;
 *   `POST /{version}/{job resourceName}:addOperations` with `{ operations: [{ create: {
 *   userIdentifiers: [{ hashedEmail } | { hashedPhoneNumber } ...] } } | { remove: {...} }],
 *   enablePartialFailure? }` answers `{}` (the job must not have run yet); `POST
 *   /{version}/{job resourceName}:run` answers a long-running operation `{ name }` and (here, at
 *   once) applies the job's operations to the list.
 * - Headers: `Authorization: Bearer <token>`, `developer-token`. Errors are Google's JSON:
 *   `{ error: { code, message, status, details: [{ '@type', errors: [{ errorCode, message }] }] } }`
 *   (401 UNAUTHENTICATED, 403 PERMISSION_DENIED for a customer the token does not reach, 400
 *   INVALID_ARGUMENT).
 *
 * `lists` holds each user list's members (keyed by their identifiers), for tests to read.
 */
import { HEX64, jsonBody, startLoopbackPlatform, type LoopbackPlatform, type PlatformAnswer } from './server.ts';

export interface GoogleUserList { name: string; uploadKeyType: string; members: Map<string, Record<string, string>> }
interface Job { customerId: string; userList: string; operations: { op: 'create' | 'remove'; ids: Record<string, string> }[]; status: 'PENDING' | 'RUNNING' | 'SUCCESS' }

export interface GoogleAdsFixture extends LoopbackPlatform {
  baseUrl: string;
  lists: Map<string, GoogleUserList>;
  jobs: Map<string, Job>;
  members(resourceName: string): Record<string, string>[];
}

export const GOOGLE_ADS_VERSION = 'v17';
const MAX_OPERATIONS = 100_000;

const googleError = (code: number, status: string, message: string, errorCode?: Record<string, string>): PlatformAnswer => ({
  status: code,
  body: { error: { code, message, status, details: errorCode ? [{ '@type': 'type.googleapis.com/google.ads.googleads.v17.errors.GoogleAdsFailure', errors: [{ errorCode, message }] }] : [] } },
});

export async function startGoogleAdsPlatform(opts: { accessToken: string; developerToken?: string; customers: string[] }): Promise<GoogleAdsFixture> {
  const lists = new Map<string, GoogleUserList>();
  const jobs = new Map<string, Job>();
  let nextId = 7000;
  const prefix = `/${GOOGLE_ADS_VERSION}/`;
  const platform = await startLoopbackPlatform((req) => {
    if (req.headers.authorization !== `Bearer ${opts.accessToken}`) {
      return googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (opts.developerToken !== undefined && req.headers['developer-token'] !== opts.developerToken) {
      return googleError(401, 'UNAUTHENTICATED', 'The developer token is not valid.', { authenticationError: 'DEVELOPER_TOKEN_INVALID' });
    }
    if (req.method !== 'POST' || !req.path.startsWith(prefix)) return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
    const path = req.path.slice(prefix.length);
    const body = jsonBody(req) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') return googleError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    const customer = /^customers\/(\d+)\//.exec(path)?.[1];
    if (!customer) return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
    if (!opts.customers.includes(customer)) {
      return googleError(403, 'PERMISSION_DENIED', "The caller does not have permission", { authorizationError: 'USER_PERMISSION_DENIED' });
    }
    let m: RegExpExecArray | null;
    if (path === `customers/${customer}/userLists:mutate`) {
      const create = (body.operations as { create?: { name?: unknown; crmBasedUserList?: { uploadKeyType?: unknown } } }[] | undefined)?.[0]?.create;
      if (!create || typeof create.name !== 'string' || !create.crmBasedUserList || typeof create.crmBasedUserList.uploadKeyType !== 'string') {
        return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', { fieldError: 'REQUIRED' });
      }
      if ([...lists.values()].some((l) => l.name === create.name)) return googleError(400, 'INVALID_ARGUMENT', 'Name is already being used for another user list for the account.', { userListError: 'NAME_ALREADY_USED' });
      const resourceName = `customers/${customer}/userLists/${nextId++}`;
      lists.set(resourceName, { name: create.name, uploadKeyType: create.crmBasedUserList.uploadKeyType, members: new Map() });
      return { status: 200, body: { results: [{ resourceName }] } };
    }
    if (path === `customers/${customer}/offlineUserDataJobs:create`) {
      const job = body.job as { type?: unknown; customerMatchUserListMetadata?: { userList?: unknown } } | undefined;
      const userList = job?.customerMatchUserListMetadata?.userList;
      if (job?.type !== 'CUSTOMER_MATCH_USER_LIST' || typeof userList !== 'string') return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', { fieldError: 'REQUIRED' });
      if (!lists.has(userList) || !userList.startsWith(`customers/${customer}/`)) return googleError(400, 'INVALID_ARGUMENT', 'The user list does not exist.', { offlineUserDataJobError: 'INVALID_USER_LIST_ID' });
      const resourceName = `customers/${customer}/offlineUserDataJobs/${nextId++}`;
      jobs.set(resourceName, { customerId: customer, userList, operations: [], status: 'PENDING' });
      return { status: 200, body: { resourceName } };
    }
    if ((m = /^(customers\/\d+\/offlineUserDataJobs\/\d+):(addOperations|run)$/.exec(path))) {
      const job = jobs.get(m[1]!);
      if (!job) return googleError(404, 'NOT_FOUND', 'Resource was not found.');
      if (job.status !== 'PENDING') return googleError(400, 'INVALID_ARGUMENT', 'The job is not pending.', { offlineUserDataJobError: 'INVALID_JOB_STATUS' });
      if (m[2] === 'run') {
        const list = lists.get(job.userList)!;
        for (const { op, ids } of job.operations) {
          const key = JSON.stringify(ids);
          if (op === 'create') list.members.set(key, ids);
          else list.members.delete(key);
        }
        job.status = 'SUCCESS';
        return { status: 200, body: { name: `customers/${job.customerId}/operations/${m[1]!.split('/').pop()}-run` } };
      }
      const operations = body.operations;
      if (!Array.isArray(operations) || operations.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'Operations are required.', { fieldError: 'REQUIRED' });
      const identifiers = operations.reduce<number>((n, o: { create?: { userIdentifiers?: unknown[] }; remove?: { userIdentifiers?: unknown[] } }) => n + ((o.create ?? o.remove)?.userIdentifiers?.length ?? 0), 0);
      if (identifiers > MAX_OPERATIONS) return googleError(400, 'INVALID_ARGUMENT', 'Too many user identifiers in the request.', { offlineUserDataJobError: 'TOO_MANY_USER_IDENTIFIERS' });
      for (const o of operations as { create?: { userIdentifiers?: unknown }; remove?: { userIdentifiers?: unknown } }[]) {
        const op = o.create ? 'create' : o.remove ? 'remove' : null;
        const given = (o.create ?? o.remove)?.userIdentifiers;
        if (!op || !Array.isArray(given) || given.length === 0) return googleError(400, 'INVALID_ARGUMENT', 'An operation needs user identifiers.', { fieldError: 'REQUIRED' });
        const ids: Record<string, string> = {};
        for (const id of given as Record<string, unknown>[]) {
          const [key, value] = Object.entries(id)[0] ?? [];
          if ((key !== 'hashedEmail' && key !== 'hashedPhoneNumber') || typeof value !== 'string' || !HEX64.test(value)) {
            return googleError(400, 'INVALID_ARGUMENT', 'The user identifier is not a SHA-256 hash.', { offlineUserDataJobError: 'INVALID_SHA256_FORMAT' });
          }
          ids[key] = value;
        }
        job.operations.push({ op, ids });
      }
      return { status: 200, body: {} };
    }
    return googleError(404, 'NOT_FOUND', 'The requested URL was not found on this server.');
  }, /:addOperations$/);
  return {
    ...platform,
    baseUrl: `${platform.origin}/${GOOGLE_ADS_VERSION}`,
    lists,
    jobs,
    members: (name) => [...(lists.get(name)?.members.values() ?? [])].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}
