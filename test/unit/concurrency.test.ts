import { describe, expect, it } from 'vitest';
import { mapWithConcurrency } from '../../lambdas/src/platform/concurrency';

/** Lets other pending work run a few turns, so overlapping calls really overlap. */
async function yieldTurns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

describe('mapWithConcurrency', () => {
  it('runs at most `limit` calls at once, all of them, and keeps the items’ order in the results', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const results = await mapWithConcurrency(
      Array.from({ length: 20 }, (_, i) => i),
      3,
      async (n) => {
        running++;
        most = Math.max(most, running);
        seen.push(n);
        // Later items finish sooner: the results must still follow the items.
        await yieldTurns(20 - n);
        running--;
        return n * 10;
      },
    );
    expect(most).toBe(3);
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
  });

  it('with fewer items than the limit, starts each once', async () => {
    const calls: string[] = [];
    await mapWithConcurrency(['a', 'b'], 8, async (s) => {
      calls.push(s);
    });
    expect(calls).toEqual(['a', 'b']);
    expect(await mapWithConcurrency([], 8, async () => 1)).toEqual([]);
  });

  it('rejects with the first error once the running calls settle, and starts nothing after it', async () => {
    const finished: number[] = [];
    const started: number[] = [];
    const run = mapWithConcurrency([0, 1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await yieldTurns(n === 1 ? 1 : 5);
      if (n === 1) throw new Error('item 1 failed');
      finished.push(n);
      return n;
    });
    await expect(run).rejects.toThrow('item 1 failed');
    // 0 was running beside 1 and finished; nothing later was started.
    expect(started).toEqual([0, 1]);
    expect(finished).toEqual([0]);
  });

  it('stops starting items once shouldStart says no; those results are undefined, running ones finish', async () => {
    let budget = 3;
    const results = await mapWithConcurrency(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        await yieldTurns(2);
        return n;
      },
      () => budget-- > 0,
    );
    expect(results).toEqual([1, 2, 3, undefined, undefined]);
  });

  it('refuses a limit that is not a positive integer', async () => {
    await expect(mapWithConcurrency([1], 0, async (n) => n)).rejects.toThrow(/positive integer/);
    await expect(mapWithConcurrency([1], 1.5, async (n) => n)).rejects.toThrow(/positive integer/);
  });
});
