// A chunk whose code the page loads once, on first use or ahead of it
// (the import's result view, the legend's body). A failed load is tried
// again on the next call.
export interface Chunk<M> {
  /** the code, loaded once */
  load(): Promise<void>;
  /** the code if it is in, else null */
  get(): M | null;
}

export function chunk<M>(importer: () => Promise<M>): Chunk<M> {
  let code: M | null = null;
  let loading: Promise<void> | null = null;
  return {
    load: () =>
      (loading ??= importer().then(
        (m) => {
          code = m;
        },
        (e: unknown) => {
          loading = null;
          throw e;
        },
      )),
    get: () => code,
  };
}
