// Test helpers of the store (Node only): an Env serving the bundled
// scenarios from scenarios/ with timers that never fire.
import { scenario } from '../engine/testing';
import type { Env } from './store';

export function scenarioEnv(): Env {
  return {
    fetchText: async (path) => {
      if (path === 'scenarios/index.json') return JSON.stringify([{ id: 'basics', file: 'basics.trace', description: '' }]);
      const m = /^scenarios\/(.+)\.trace$/.exec(path);
      if (m) return scenario(m[1]);
      throw new Error(`no ${path}`);
    },
    setTimeout: () => 0,
    clearTimeout: () => {},
    now: () => 0,
  };
}
