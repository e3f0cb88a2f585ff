/**
 * Runs async sections one at a time (in this process). Used where a file on disk and the rows
 * that refer to it must change together: committing an upload and deleting the last reference.
 */
export function serialiser() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(section: () => Promise<T>): Promise<T> => {
    const run = tail.then(section, section);
    tail = run.catch(() => undefined);
    return run;
  };
}
