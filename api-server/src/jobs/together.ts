/**
 * Work run side by side within one loop tick: waits for every part to end (none is left running
 * behind the tick), then fails with the first failure, if any.
 */
export async function together(parts: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(parts);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
