// Shared helpers for the JS tests: paths, scenario discovery, running CLIs.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DeferredHalf } from '../core/wasm/slubviz-api.mjs';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Overridable so the harness can be pointed at other builds.
export const NATIVE_CLI = process.env.SVZ_NATIVE_CLI || join(ROOT, 'build/slubviz');
export const WASM_DIR = process.env.SVZ_WASM_DIR || join(ROOT, 'build-wasm');
export const WASM_CLI = join(WASM_DIR, 'slubviz_node.js');
export const WASM_MODULE = join(WASM_DIR, 'slubviz_core.mjs');
export const WASM_BINARY = join(WASM_DIR, 'slubviz_core.wasm');
export const WASM_DEFERRED = join(WASM_DIR, 'slubviz_core.deferred.wasm');
export const SCENARIO_DIR = process.env.SVZ_SCENARIO_DIR || join(ROOT, 'scenarios');

/** Throws (failing the test) if a build output is missing. */
export function requireBuilt(path, how) {
  if (!existsSync(path)) {
    throw new Error(`${path} does not exist: build it first (${how})`);
  }
  return path;
}

/** Every scenarios/*.trace, as paths relative to ROOT, sorted. */
export function listScenarios() {
  if (!existsSync(SCENARIO_DIR)) return [];
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.trace'))
    .sort()
    .map((f) => join(SCENARIO_DIR, f))
    .map((p) => (p.startsWith(ROOT + '/') ? p.slice(ROOT.length + 1) : p));
}

/** Runs a command from ROOT; returns {status, signal, stdout (Buffer), stderr (string)}. */
export function run(cmd, args, { timeoutMs = 10 * 60 * 1000 } = {}) {
  const r = spawnSync(cmd, args, {
    cwd: ROOT,
    maxBuffer: 1024 * 1024 * 1024,
    timeout: timeoutMs,
  });
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  return {
    status: r.status,
    signal: r.signal,
    stdout: r.stdout,
    stderr: r.stderr.toString('utf8'),
  };
}

export function runNative(args, opts) {
  requireBuilt(NATIVE_CLI, 'scripts/build.sh native');
  return run(NATIVE_CLI, args, opts);
}

export function runWasmCli(args, opts) {
  requireBuilt(WASM_CLI, 'scripts/build.sh wasm');
  return run(process.execPath, [WASM_CLI, ...args], opts);
}

/** Instantiates the browser module under Node (bytes passed as wasmBinary);
 * its deferred half (Release builds) loads on the first call into it
 * (`readDeferred()` gives its bytes), and `mod.deferred` (a DeferredHalf)
 * tells when it did. */
export async function loadBrowserModule(readDeferred = () => readFileSync(WASM_DEFERRED)) {
  requireBuilt(WASM_MODULE, 'scripts/build.sh wasm');
  requireBuilt(WASM_BINARY, 'scripts/build.sh wasm');
  const { default: factory } = await import(pathToFileURL(WASM_MODULE).href);
  const printed = [];
  const deferred = new DeferredHalf(readDeferred);
  const mod = deferred.attach(await factory({
    wasmBinary: readFileSync(WASM_BINARY),
    print: (s) => printed.push(s),
    printErr: (s) => printed.push(s),
    ...deferred.factoryOptions(),
  }));
  mod.printed = printed;
  mod.deferred = deferred;
  return mod;
}

/** A short description of a failed command for assertion messages. */
export function describeRun(label, r) {
  return `${label}: exit ${r.status}${r.signal ? ` (signal ${r.signal})` : ''}\n` +
    // (long lines cut: a JS error would quote a whole minified line)
    `stderr:\n${r.stderr.split('\n').map((l) => (l.length > 300 ? l.slice(0, 300) + '…' : l))
      .join('\n').slice(0, 4000)}`;
}
