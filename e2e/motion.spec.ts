// Motion (issue 13, item 6): every move of a sheaf, a slab or objects
// between containers of the cache shown flies from end to end (sheaf ->
// barn included), also while playing slowly; at high speed the moves of a
// batch of steps fly as one summary instead of being dropped. Flights are
// read from the test hook's log (web/src/views/Transitions.tsx labels:
// "KIND ID FROM->TO", an object batch without a named object has id -1).
import { expect, test, type AppPage } from './fixtures';

const MOVES = ['take_object', 'put_object', 'move_sheaf', 'move_slab'];
const flights = (app: AppPage) => app.page.evaluate(() => window.__slubviz!.flights());

async function everyMoveFlies(app: AppPage, steps: number): Promise<string[]> {
  await app.act('setAnim', 200);
  const flown: string[] = [];
  for (let i = 0; i < steps; i++) {
    const before = (await flights(app)).at(-1);
    await app.act('stepForward');
    const st = await app.state();
    const e = st.event!;
    if (!MOVES.includes(e.kind) || !e.from || !e.to || e.from === e.to || e.cache !== st.selectedCache) continue;
    const id = e.kind === 'move_sheaf' ? e.sheaf : e.kind === 'move_slab' ? e.slab : (e.obj ?? -1);
    const want = `${e.kind === 'move_sheaf' ? 'sheaf' : e.kind === 'move_slab' ? 'slab' : 'object'} ${id} ${e.from}->${e.to}`;
    await expect.poll(async () => (await flights(app)).at(-1), { message: `step #${e.seq}: ${e.text}` }).not.toBe(before);
    expect((await flights(app)).at(-1), `step #${e.seq}: ${e.text}`).toBe(want);
    flown.push(want);
  }
  return flown;
}

test('every move of the shown cache flies end to end in the first 60 steps of basics', async ({ app }) => {
  await app.open();
  const flown = await everyMoveFlies(app, 60);
  // basics (build/slubviz run --events): #12 fills sheaf 1 from the new
  // slab's freelist (60 objects, no object named), #17 installs it as main
  expect(flown).toContain('object -1 freelist->sheaf');
  expect(flown).toContain('sheaf 1 none->main');
  expect(flown.length).toBeGreaterThanOrEqual(6);
});

test('sheaves fly to and from the barn (sheaf-cycle)', async ({ app }) => {
  // build/slubviz run scenarios/sheaf-cycle.trace --events:
  //   #1418 barn_put_full_sheaf: move sheaf #3 from none to barn_full
  //   #1723 barn_replace_empty_sheaf: move sheaf #3 from barn_full to main
  //   #1724 barn_replace_empty_sheaf: move sheaf #2 from main to barn_empty
  await app.open('#s=sheaf-cycle&seq=1410');
  const flown = await everyMoveFlies(app, 10);
  await app.act('seekSeq', 1720);
  flown.push(...(await everyMoveFlies(app, 6)));
  expect(flown).toContain('sheaf 3 none->barn_full');
  expect(flown).toContain('sheaf 3 barn_full->main');
  expect(flown).toContain('sheaf 2 main->barn_empty');
});

test('playing slowly flies each step; playing fast flies batches', async ({ app }) => {
  await app.open('#s=sheaf-cycle');
  await app.act('setAnim', 200);
  await app.act('setSpeed', 5);
  const n = (await flights(app)).length;
  await app.act('play');
  await expect.poll(async () => (await flights(app)).slice(n).filter((f) => !f.includes('batch')).length, { timeout: 30_000 }).toBeGreaterThan(0);
  await app.act('pause');
  await app.act('toStart');
  await app.act('setSpeed', 1000);
  await app.act('play');
  // a batch flies every 400 ms with every step since the one before (about
  // 400 at 1000 steps/s, where one frame holds about 17): sheaf-cycle moves
  // a sheaf every ~300 steps (#17, #320, #336, #639 ... in --events), so
  // batches that spanned only their own frame would seldom show one
  const batchSteps = async () =>
    (await flights(app)).map((f) => /\(batch of (\d+) steps/.exec(f)).filter((m) => m !== null).map((m) => Number(m[1]));
  await expect.poll(async () => Math.max(0, ...(await batchSteps())), { timeout: 30_000 }).toBeGreaterThan(50);
  await app.act('pause');
});
