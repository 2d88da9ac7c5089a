// The worker loop's load (server.ts): a named worker loads the wasm as it
// starts, before the page's 'init' reaches it; 'init' naming another folder
// loads from that one; an unnamed worker waits for 'init'.
import { describe, expect, test } from 'vitest';
import type { Body, InitBody, Message, Reply } from './protocol';
import { serve, workerWasmBase, type Handler } from './server';

interface Echo extends Body {
  type: 'echo';
}

/** A serve() loop whose handler answers with the folder it was loaded from. */
function loop(wasmBase: string, loadNow: boolean) {
  const loads: string[] = [];
  const replies: Reply[] = [];
  const onRequest = serve<Echo>(
    async (base) => {
      loads.push(base);
      return { handle: () => base } satisfies Handler<Echo>;
    },
    (r) => replies.push(r),
    wasmBase,
    { loadNow },
  );
  const ask = async (req: Message<Echo> | Message<InitBody>) => {
    onRequest(req);
    await expect.poll(() => replies.some((r) => r.id === req.id)).toBe(true);
    return replies.find((r) => r.id === req.id);
  };
  return { loads, ask };
}

describe('where and when a worker loads the wasm', () => {
  test('a worker named after the folder loads from it before any message', () => {
    expect(workerWasmBase({ name: 'http://h/app/wasm/', location: { href: 'http://h/app/assets/worker-x.js' } })).toEqual({
      wasmBase: 'http://h/app/wasm/',
      loadNow: true,
    });
    const { loads } = loop('http://h/app/wasm/', true);
    expect(loads).toEqual(['http://h/app/wasm/']);
  });

  test('init naming the same folder uses that load, not a second one', async () => {
    const { loads, ask } = loop('w/', true);
    expect(await ask({ id: 1, type: 'init', wasmBase: 'w/' })).toMatchObject({ type: 'ok' });
    expect(await ask({ id: 2, type: 'echo' })).toMatchObject({ type: 'ok', result: 'w/' });
    expect(loads).toEqual(['w/']);
  });

  test("init naming another folder is obeyed: the requests run on init's load", async () => {
    const { loads, ask } = loop('w/', true);
    await ask({ id: 1, type: 'init', wasmBase: 'other/' });
    expect(await ask({ id: 2, type: 'echo' })).toMatchObject({ type: 'ok', result: 'other/' });
    expect(loads).toEqual(['w/', 'other/']);
  });

  test('an unnamed worker loads nothing until init, then from init\'s folder', async () => {
    expect(workerWasmBase({ name: '', location: { href: 'http://h/app/assets/worker-x.js' } })).toEqual({
      wasmBase: 'http://h/app/wasm/',
      loadNow: false,
    });
    const { loads, ask } = loop('http://h/app/wasm/', false);
    expect(loads).toEqual([]);
    await ask({ id: 1, type: 'init', wasmBase: 'given/' });
    expect(await ask({ id: 2, type: 'echo' })).toMatchObject({ result: 'given/' });
    expect(loads).toEqual(['given/']);
  });

  test('a failed load at once is the error init answers', async () => {
    const replies: Reply[] = [];
    const onRequest = serve<Echo>(() => Promise.reject(new Error('w/slubviz_core.wasm: HTTP 404')), (r) => replies.push(r), 'w/', { loadNow: true });
    onRequest({ id: 1, type: 'init', wasmBase: 'w/' });
    await expect.poll(() => replies[0]).toMatchObject({ id: 1, type: 'error', message: 'w/slubviz_core.wasm: HTTP 404' });
  });
});
