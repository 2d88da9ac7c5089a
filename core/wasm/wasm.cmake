# WebAssembly targets. Included by the top-level CMakeLists.txt only when
# configuring with Emscripten (scripts/build.sh wasm -> emcmake cmake), after
# the slubviz_core static library has been defined from core/src/*/*.c.
#
#   slubviz_node       build-wasm/slubviz_node.js (+ .wasm)
#                      The CLI (core/cli/*.c) for Node: real filesystem, exit
#                      status and stdout identical to the native `slubviz`.
#   slubviz_core_wasm  build-wasm/slubviz_core.mjs (+ slubviz_core.wasm)
#                      The browser module: ES6 factory, web/worker only,
#                      exporting exactly core/wasm/exported_functions.json.
#
# Both link the same slubviz_core library as the native build, compiled with
# the same flags (CMAKE_BUILD_TYPE, SVZ_VALIDATE).

set(SVZ_WASM_DIR ${CMAKE_CURRENT_LIST_DIR})
set(SVZ_WASM_EXPORTS ${SVZ_WASM_DIR}/exported_functions.json)

# Link-time optimisation for both targets (compile flags come from
# CMAKE_BUILD_TYPE like the native build). Release builds compile the core
# to LLVM bitcode (-flto) and optimise it whole when linking (issue
# 14): the per-step helpers (co_self, arena_reserve) are in other files
# than their callers.
# (CMake's own IPO check says no under this Emscripten, hence the flags.)
#
# Size (issue 14: the browser downloads slubviz_core.wasm): the model
# (core/src/model, every micro-step) is compiled for speed, -O2; the rest
# (trace parser, importers, views, API: run once per load, import or
# frame) for size, -Oz, which LTO keeps per function. The model is most
# of the code; in wasm its EV() sites keep only the common end of a step
# inline and its CALL() sites call co_push() (engine.h: WASM_NOINLINE):
# 314 KB (424 KB with all of it inline, 443 KB all -O2). Inside the per-step
# files, what runs once per trace or report and the coroutines a
# kmalloc/kfree workload never enters are compiled for size as well
# (engine.h FOR_SIZE, coroutines.def SIZE): 307.6 -> 299 KB, with the
# validator at -O2. The whole model at -Oz would be 257 KB, but it runs 4x
# slower under Node at -Os (the arena accessors and the frame copy become
# calls).
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  target_compile_options(slubviz_core PRIVATE -flto -O2)
  set(SVZ_WASM_COLD_SOURCES ${SVZ_CORE_SOURCES})
  # ... but the model's files that run per step (the rest of the model,
  # configuration, slab geometry, gfp parsing, counter sums and event
  # text, is cold too). The validator runs after every micro-step of a
  # round-robin or random schedule: at -Oz partial-churn.trace
  # round-robin took 46 us/op under Node, 3x native; at -O2 26 (+3.4 KB).
  list(FILTER SVZ_WASM_COLD_SOURCES EXCLUDE REGEX
       "/core/src/model/(alloc|arena|barn|cache|coroutine|cpu|free|node|ops|page_alloc|rcu|sched|sheaf|slab|timing|validate)[.]c$")
  set_source_files_properties(${SVZ_WASM_COLD_SOURCES} PROPERTIES COMPILE_OPTIONS -Oz)
  # (-O2, not -O3: emcc -O3 minifies the export names the page calls)
  set(SVZ_WASM_LINK_OPT -O2 -flto)
else()
  set(SVZ_WASM_LINK_OPT -O2)
endif()
# Profile-guided (issue 14): scripts/build.sh has the clang emcc drives,
# natively and instrumented, run the bench's traces and every scenario
# serially (build-prof/); its counts give the model's per-step files branch
# weights and inlining. Under Node, in x86 instructions an op of V8's code
# (callgrind, the bench's pass): fastpath.trace 910 -> 856, ublk-bio256
# 1392 -> 1311; the module's first half 188.9 -> 189.6 KB (step_on() and
# model_validate() kept out of line in wasm: WASM_NOINLINE; without,
# 878 and 1344). Trained on the interleaving schedules as well it ran 770,
# but clang copied step_on() and model_step() into their callers and the
# first half grew to 207.5 KB, past its 200. Not the -Oz files, and not
# the validator (serially never run: its code stays as at -O2). A new
# profile recompiles what it covers.
if(SVZ_PGO_PROFILE AND CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT SVZ_SANITIZE)
  set(SVZ_WASM_HOT_SOURCES ${SVZ_CORE_SOURCES})
  list(REMOVE_ITEM SVZ_WASM_HOT_SOURCES ${SVZ_WASM_COLD_SOURCES})
  list(FILTER SVZ_WASM_HOT_SOURCES EXCLUDE REGEX "/core/src/model/validate[.]c$")
  set_property(SOURCE ${SVZ_WASM_HOT_SOURCES} APPEND PROPERTY COMPILE_OPTIONS
    -fprofile-instr-use=${SVZ_PGO_PROFILE}
    # a function edited since the profile: compiled without its counts
    -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date)
  set_property(SOURCE ${SVZ_WASM_HOT_SOURCES} APPEND PROPERTY OBJECT_DEPENDS ${SVZ_PGO_PROFILE})
  message(STATUS "slubviz: the wasm core optimised with the profile ${SVZ_PGO_PROFILE}")
endif()

# 128-bit SIMD (every browser since 2023, Node >= 16): clang writes the
# frame a CALL() pushes (co_push(), 76 bytes) and other record copies with
# v128 stores; 4-10% faster under Node on the bench traces, +1 KB.
target_compile_options(slubviz_core PRIVATE -msimd128)
list(APPEND SVZ_WASM_LINK_OPT -msimd128)
# emmalloc, not dlmalloc: 7.5 KB less module. The model takes its records
# from its arena, so malloc is off the hot path (same instruction counts);
# both targets, so the CLI under Node and the page allocate alike.
list(APPEND SVZ_WASM_LINK_OPT "SHELL:-s MALLOC=emmalloc")
# The Debian Emscripten 3.1.6 JS optimizer needs NODE_PATH=/usr/share/nodejs
# (acorn); scripts/build.sh exports it.

# Sanitizer builds (scripts/build.sh wasm-san: Debug, SVZ_SANITIZE,
# SVZ_VALIDATE): ASan + UBSan in wasm, for the paths only wasm takes (its
# out-of-line step ends and frame pushes, 32-bit pointers, the browser
# module's API). Every UBSan report aborts, so a test sees it as a trap.
if(SVZ_SANITIZE)
  set(SVZ_WASM_SAN_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined)
  # -O1: at -O0 a validated run is several times slower again
  target_compile_options(slubviz_core PRIVATE ${SVZ_WASM_SAN_FLAGS} -O1)
  list(APPEND SVZ_WASM_LINK_OPT ${SVZ_WASM_SAN_FLAGS} "SHELL:-s INITIAL_MEMORY=268435456")
  set(SVZ_WASM_SAN_SOURCES ${SVZ_WASM_DIR}/sanitize_options.c)
endif()

# ---- a. The CLI for Node ---------------------------------------------------
file(GLOB SVZ_WASM_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/core/cli/*.c)
add_executable(slubviz_node ${SVZ_WASM_CLI_SOURCES} ${SVZ_WASM_SAN_SOURCES})
if(SVZ_SANITIZE)
  target_compile_options(slubviz_node PRIVATE ${SVZ_WASM_SAN_FLAGS} -O1)
endif()
target_link_libraries(slubviz_node PRIVATE slubviz_core)
target_include_directories(slubviz_node PRIVATE ${CMAKE_SOURCE_DIR}/core/src)
set_target_properties(slubviz_node PROPERTIES
  SUFFIX ".js"
  LINK_DEPENDS ${SVZ_WASM_DIR}/node-pre.js)
target_link_options(slubviz_node PRIVATE
  ${SVZ_WASM_LINK_OPT}
  # Works around 3.1.6 trying fetch() on a file path under Node >= 18, and
  # EAGAIN on non-blocking stdout pipes.
  "SHELL:--pre-js ${SVZ_WASM_DIR}/node-pre.js"
  # Always the real filesystem layer, so stdout is written byte for byte
  # (without it a program that opens no file prints through console.log,
  # line by line, adding a newline to a last unterminated line).
  "SHELL:-s FORCE_FILESYSTEM=1"
  "SHELL:-s NODERAWFS=1"
  "SHELL:-s ENVIRONMENT=node"
  "SHELL:-s ALLOW_MEMORY_GROWTH=1"
  "SHELL:-s EXIT_RUNTIME=1")

# slubviz_node.js is CommonJS: keep Node from reading it as an ES module if a
# package.json above the build directory ever says "type": "module".
file(WRITE ${CMAKE_BINARY_DIR}/package.json "{ \"type\": \"commonjs\" }\n")

# ---- b. The browser module -------------------------------------------------
# Its own target name (slubviz_core is the static library); the output files
# are still called slubviz_core.mjs / slubviz_core.wasm.
# module.c only includes the public header (add_executable needs a source);
# everything exported comes from the library, pulled in by the export list.
add_executable(slubviz_core_wasm ${SVZ_WASM_DIR}/module.c ${SVZ_WASM_SAN_SOURCES})
target_link_libraries(slubviz_core_wasm PRIVATE slubviz_core)
set_target_properties(slubviz_core_wasm PROPERTIES
  OUTPUT_NAME slubviz_core
  SUFFIX ".mjs"
  LINK_DEPENDS ${SVZ_WASM_EXPORTS})
target_link_options(slubviz_core_wasm PRIVATE
  ${SVZ_WASM_LINK_OPT}
  "SHELL:-s MODULARIZE=1"
  "SHELL:-s EXPORT_ES6=1"
  "SHELL:-s EXPORT_NAME=createSlubvizModule"
  "SHELL:-s ENVIRONMENT=web,worker"
  "SHELL:-s EXPORTED_FUNCTIONS=@${SVZ_WASM_EXPORTS}"
  "SHELL:-s EXPORTED_RUNTIME_METHODS=ccall,cwrap,UTF8ToString,stringToUTF8,lengthBytesUTF8"
  "SHELL:-s ALLOW_MEMORY_GROWTH=1"
  # int64_t arguments/results (svz_seq, svz_events_* from_seq) cross as
  # BigInt instead of being split into two i32 halves.
  "SHELL:-s WASM_BIGINT=1")

# Release builds split the browser module in two (issue 14, binaryen's
# wasm-split): slubviz_core.wasm holds what the page's first screen runs
# (the default scenario under the default preset, opened and played as
# the page does: split.mjs), slubviz_core.deferred.wasm the rest (the other
# era's paths, the importers, the text views, the validator). The worker
# fetches and instantiates the deferred half once its first screen is up;
# a call into it before then loads it on the spot (slubviz-api.mjs,
# DeferredHalf). Emscripten links the module instrumented for a profile
# (and keeps the plain one as .wasm.orig); split.mjs runs the workload on
# it under Node and splits the plain one by that profile.
if(CMAKE_BUILD_TYPE STREQUAL "Release" AND NOT SVZ_SANITIZE)
  find_program(SVZ_NODE NAMES node nodejs REQUIRED)
  find_program(SVZ_WASM_SPLIT wasm-split HINTS /usr/bin REQUIRED)
  target_link_options(slubviz_core_wasm PRIVATE "SHELL:-s SPLIT_MODULE=1" -Wno-experimental)
  set_property(TARGET slubviz_core_wasm APPEND PROPERTY LINK_DEPENDS ${SVZ_WASM_DIR}/split.mjs)
  add_custom_command(TARGET slubviz_core_wasm POST_BUILD
    COMMAND ${SVZ_NODE} ${SVZ_WASM_DIR}/split.mjs ${CMAKE_BINARY_DIR} ${SVZ_WASM_SPLIT}
            ${CMAKE_SOURCE_DIR}/scenarios/basics.trace
    VERBATIM)
endif()
