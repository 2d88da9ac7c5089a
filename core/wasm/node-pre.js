// --pre-js for build-wasm/slubviz_node.js (the CLI under Node).
//
// Emscripten 3.1.6 (Debian's) loads the .wasm with fetch() whenever a global
// fetch exists, which Node >= 18 has, and fetch() cannot read a file path
// ("Failed to parse URL"). Handing it the bytes up front makes it take the
// ArrayBuffer path instead. The .wasm sits next to this .js file.
if (typeof process == 'object' && typeof require == 'function' && !Module['wasmBinary']) {
  Module['wasmBinary'] = require('fs').readFileSync(__filename.replace(/\.js$/, '.wasm'));
}
