// --pre-js for build-wasm/slubviz_node.js (the CLI under Node).
if (typeof process == 'object' && typeof require == 'function') {
  // Emscripten 3.1.6 (Debian's) loads the .wasm with fetch() whenever a
  // global fetch exists, which Node >= 18 has, and fetch() cannot read a file
  // path ("Failed to parse URL"). Handing it the bytes up front makes it take
  // the ArrayBuffer path instead. The .wasm sits next to this .js file.
  if (!Module['wasmBinary']) {
    Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
  }
  // stdout/stderr are written with fs.writeSync (NODERAWFS). If they are
  // non-blocking pipes, a full pipe throws EAGAIN, which libc would turn
  // into silently dropped output: wait for the reader and retry instead.
  var svzFs = require('fs');
  var svzWriteSync = svzFs.writeSync;
  var svzNap = new Int32Array(new SharedArrayBuffer(4));
  svzFs.writeSync = function () {
    for (;;) {
      try {
        return svzWriteSync.apply(svzFs, arguments);
      } catch (e) {
        if (e.code !== 'EAGAIN') throw e;
        Atomics.wait(svzNap, 0, 0, 1);
      }
    }
  };
}
