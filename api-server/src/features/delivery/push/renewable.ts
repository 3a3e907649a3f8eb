/**
 * A credential every send of a push client shares (the APNs provider JWT, the FCM OAuth access
 * token): made once at a time however many sends ask together (single flight), reused while
 * `fresh` says so, and renewed after a provider refused it, unless another send already renewed
 * it (the `generation` the refused send carried is no longer the current one).
 */
import type { ProviderAnswer, PushResult } from './result.ts';

export type Generation<T> = T & { generation: number };

export class Renewable<T extends object> {
  private current: Generation<T> | null = null;
  private pending: Promise<Generation<T>> | null = null;
  private generation = 0;
  private readonly make: () => Promise<T>;
  private readonly fresh: (value: T) => boolean;

  constructor(make: () => Promise<T>, fresh: (value: T) => boolean) {
    this.make = make;
    this.fresh = fresh;
  }

  /** The credential to send with, made anew when it is no longer fresh. */
  get(): Promise<Generation<T>> {
    const c = this.current;
    if (c && this.fresh(c)) return Promise.resolve(c);
    return this.load();
  }

  /** After a refusal of the credential of `generation`: a new one, unless another send already renewed it. */
  renew(generation: number): Promise<Generation<T>> {
    const c = this.current;
    if (c && c.generation !== generation) return Promise.resolve(c);
    this.current = null;
    return this.load();
  }

  private load(): Promise<Generation<T>> {
    this.pending ??= this.make()
      .then((value) => (this.current = { ...value, generation: ++this.generation }))
      .finally(() => { this.pending = null; });
    return this.pending;
  }
}

/**
 * One send with a client's shared credential: `attempt` makes the request and turns the answer
 * into a result; when the provider refused the credential (`refresh_credentials`), it is renewed
 * once and the send made again, and a second refusal fails the send. `credentialError` says what
 * it means when the credential cannot be made at all (a key that does not sign, a token endpoint
 * that refuses).
 */
export async function sendWithRenewal<T extends object>(
  credential: Renewable<T>,
  credentialError: (error: unknown) => PushResult,
  attempt: (credential: Generation<T>) => Promise<ProviderAnswer>,
): Promise<PushResult> {
  let refused = 0;
  for (let n = 0; ; n++) {
    let current: Generation<T>;
    try {
      current = n === 0 ? await credential.get() : await credential.renew(refused);
    } catch (error) {
      return credentialError(error);
    }
    const result = await attempt(current);
    if (result.outcome !== 'refresh_credentials') return result;
    if (n > 0) return { outcome: 'failed', reason: result.reason };
    refused = current.generation;
  }
}
