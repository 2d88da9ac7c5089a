// The first module main.tsx imports, so the first the page evaluates: the
// engine worker starts here, and loads and compiles its wasm while the
// app's own modules evaluate (issue 14, cold load: the worker's start was
// the first render's critical path).
import { EngineClient } from './engine/client';

export const base = new URL(import.meta.env.BASE_URL, location.href);
export const engine = EngineClient.create(new URL('wasm/', base).href);
