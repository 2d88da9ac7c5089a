// The core's names the lesson engine checks lessons against and reads the
// model with: trace ops, presets, setting keys, SLUB_STATS items (with
// their eras), node counters, event kinds, kernel functions, locations and
// the event ring's size. They come from the core's manifest
// (svz_manifest_json, `slubviz manifest`): the lesson engine types no list
// of them. Pure ES module, no I/O: whoever holds the wasm module (the lesson
// check under Node, the web app's workers and page) hands the manifest in
// once with useManifest().

let current = null;

/** The vocabulary of a manifest (svz_manifest_json, parsed). */
export function vocabularyOf(m) {
  if (!m || m.schema !== 1) throw new Error(`lesson engine: expected a manifest of schema 1, got ${JSON.stringify(m && m.schema)}`);
  return {
    ops: m.ops,
    presets: m.presets.map((p) => p.name),
    /** setting keys as a trace's `set` takes them: names and aliases */
    settings: m.switches.flatMap((s) => [s.name, ...s.aliases]),
    /** SLUB_STATS items by their sysfs name -> the eras that count them */
    statEras: new Map(m.stats.map((s) => [s.sysfs, s.eras])),
    nodeCounters: m.node_counters,
    eventKinds: m.event_kinds,
    kernelFunctions: m.kernel_functions,
    locations: m.locations,
    /** events the model retains (docs/events.md, "Retention") */
    eventRing: m.limits.event_ring,
  };
}

/** Sets the vocabulary from the core's manifest; returns it. */
export function useManifest(m) {
  current = vocabularyOf(m);
  return current;
}

/** The vocabulary set by useManifest(). */
export function vocabulary() {
  if (!current) throw new Error('lesson engine: no vocabulary yet: call useManifest(svz_manifest_json()) first');
  return current;
}
