// (a) The native CLI and the CLI compiled to wasm (run under Node) print
// byte-identical stdout and exit with the same status on every scenario.
import { describe, expect, test } from 'vitest';
import { describeRun, listScenarios, runNative, runWasmCli } from './helpers.mjs';

const scenarios = listScenarios();
const ARGS = ['--events', '--stats', '--slabinfo'];

describe('native CLI vs wasm CLI (Node)', () => {
  test('there are scenarios to compare', () => {
    expect(scenarios, 'no scenarios/*.trace: nothing would be compared').not.toHaveLength(0);
  });

  test.each(scenarios)('%s', (trace) => {
    const args = ['run', trace, ...ARGS];
    const native = runNative(args);
    const wasm = runWasmCli(args);
    expect(native.signal, describeRun('native', native)).toBeNull();
    expect(wasm.signal, describeRun('wasm', wasm)).toBeNull();
    expect(wasm.status, `exit status differs\n${describeRun('native', native)}\n${describeRun('wasm', wasm)}`)
      .toBe(native.status);
    // Compare as text for a readable diff, then as bytes to be exact.
    expect(wasm.stdout.toString('latin1')).toBe(native.stdout.toString('latin1'));
    expect(Buffer.compare(wasm.stdout, native.stdout)).toBe(0);
  });
});
