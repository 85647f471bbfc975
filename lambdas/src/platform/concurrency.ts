/**
 * A few pieces of independent work at a time (a Stripe call per card, a team's
 * renewal): faster than one after another, without opening hundreds of
 * sockets or DynamoDB requests at once. p-limit does the same but is not a
 * dependency here, and this is the whole of what the jobs need.
 */

/**
 * Calls `work` for each item with at most `limit` calls running at once and
 * returns the results in the items' order. Items are started in order; a
 * `work` that throws rejects the whole call once the running calls settle, so
 * callers that must go on past one item's failure catch inside `work`.
 * `shouldStart` is asked before each item is started: once it says no, no
 * further item starts and their results are `undefined` (the running ones finish).
 */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  shouldStart: () => boolean = () => true,
): Promise<(R | undefined)[]> {
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`concurrency limit must be a positive integer: ${limit}`);
  const results: (R | undefined)[] = new Array(items.length).fill(undefined);
  let next = 0;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (!stopped && !failure && next < items.length) {
      if (!shouldStart()) {
        stopped = true;
        return;
      }
      const index = next++;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
