// SPEC §4 upload progress, shared by every upload UI (the question box, the knowledge list).

/**
 * Per-file progress (0–100, rounded down) from the bytes of the whole multipart body sent so
 * far: files travel in order, so file i is done once the bytes before it and its own have gone.
 * The multipart framing is spread proportionally (`loaded / total` scales the file sizes).
 * @example perFileProgress([100, 300], 200, 400) // [100, 33]
 */
export function perFileProgress(sizes: readonly number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (total <= 0) return sizes.map(() => 0);
  const sent = Math.min(1, Math.max(0, loaded / total)) * sum;
  let before = 0;
  return sizes.map((size) => {
    const own = size <= 0 ? (loaded > 0 && sent >= before ? 1 : 0) : Math.min(1, Math.max(0, (sent - before) / size));
    before += size;
    return Math.floor(own * 100);
  });
}

/** SPEC §4: the total is the rounded mean of the files' progress (0 for none). */
export const totalProgress = (percents: readonly number[]) => (percents.length ? Math.round(percents.reduce((a, b) => a + b, 0) / percents.length) : 0);
