// A message with `code` spans: kernel names inside a translated sentence
// render as <code>, wherever the language puts them.
import type { MsgKey, Vars } from '.';
import { t } from '.';

export function Rich({ k, vars }: { k: MsgKey; vars?: Vars }) {
  return (
    <>
      {t(k, vars)
        .split(/(`[^`]+`)/)
        .map((part, i) => (i % 2 ? <code key={i}>{part.slice(1, -1)}</code> : part))}
    </>
  );
}
