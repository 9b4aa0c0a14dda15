/**
 * Keeps `Date.now()` inside one wall-clock second while a test runs: it jumps to the start of the
 * next second, then moves on 1 ms for every 20 ms of real time (monotonic, and within the second
 * for 18 s). What an action right after another looks like to anything that counts whole seconds.
 * Returns the second (epoch ms at its start) and a `restore()`; `new Date()` is left alone.
 */
export function pinDateNowToOneSecond(): { second: number; restore: () => void } {
  const realNow = Date.now.bind(Date);
  const start = realNow();
  const second = Math.ceil(start / 1000) * 1000 + 1000;
  const spy = jest
    .spyOn(Date, 'now')
    .mockImplementation(() => second + Math.min(899, Math.floor((realNow() - start) / 20)));
  return { second, restore: () => spy.mockRestore() };
}
