/**
 * A money request's decisions, kept with its Idempotency-Key (data/idempotency.ts)
 * so that a retry after the request died finishes what it decided instead of
 * deciding again against books it has already changed. A handler (or the
 * service it calls) names each decision it must not make twice: what it
 * checked before any money moved, which money it took, what it planned. Every
 * money step taken on a decision is keyed by ids derived from it, so the retry
 * moves nothing twice and answers as the first run would have.
 */
export interface RequestSteps {
  /**
   * `decide`'s result, decided once per Idempotency-Key: the first run keeps
   * it with the key before going on; a run that takes over from one that died
   * gets it back without running `decide`. A `decide` that throws keeps
   * nothing. The result must survive JSON (undefined comes back undefined).
   * Whatever `decide` writes must be safe to write again: a run can die after
   * the write and before the result is kept.
   */
  once<T>(name: string, decide: () => Promise<T>): Promise<T>;
}

/** Routes without an Idempotency-Key decide on every run. */
export const decidedEachRun: RequestSteps = { once: (_name, decide) => decide() };

/**
 * Steps over what earlier runs kept (`kept`, JSON by name) and a writer for
 * this run's; `decided` says whether anything is kept, by this run or before
 * it (then money may have moved, and the key must not be forgotten).
 */
export function keptSteps(
  kept: Record<string, string>,
  keep: (name: string, json: string) => Promise<void>,
): RequestSteps & { readonly decided: boolean } {
  const steps = new Map(Object.entries(kept));
  return {
    get decided() {
      return steps.size > 0;
    },
    async once<T>(name: string, decide: () => Promise<T>): Promise<T> {
      const earlier = steps.get(name);
      if (earlier !== undefined) return (JSON.parse(earlier) as { value: T }).value;
      const value = await decide();
      const json = JSON.stringify({ value });
      await keep(name, json);
      steps.set(name, json);
      return value;
    },
  };
}
