// Shared by the browser benchmarks: serve web/dist with `vite preview` on
// a fixed port and wait until it answers.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export async function waitUrl(url, ms) {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not come up`);
}

export function startPreview(root, port) {
  return spawn(join(root, 'node_modules/.bin/vite'), ['preview', '--config', 'web/vite.config.ts', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: 'ignore',
  });
}
