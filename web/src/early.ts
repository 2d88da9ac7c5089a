// The engine worker starts here, and loads and compiles its wasm while the
// app's own modules download and evaluate (issue 14, cold load: the
// worker's start was the first render's critical path). The build makes
// this module an entry of its own, which index.html runs before the main
// chunk has arrived (web/vite.config.ts, earlyEntry); main.tsx imports it
// first, which in dev is what runs it.
import { EngineClient } from './engine/client';

export const base = new URL(import.meta.env.BASE_URL, location.href);
export const engine = EngineClient.create(new URL('wasm/', base).href);
