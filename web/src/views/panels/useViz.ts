// What every D3 panel draws from: the frame's snapshot and event, and the
// view options (selection, focus, animation) of the store.
import { useMemo } from 'react';
import { type VizInput, type VizOptions } from '../../viz/common';
import { useSelect, useStore } from '../hooks';

export function useViz(): { input: VizInput | null; opts: VizOptions } {
  const store = useStore();
  const st = useSelect(({ frame, playing, animMs, selectedCache, focusCpu, focusNode, selectedSlab, siteFilter }) => ({
    frame, playing, animMs, selectedCache, focusCpu, focusNode, selectedSlab, siteFilter,
  }));
  const f = st.frame;
  // the same object until the frame changes: panels redraw (useD3 deps) on
  // a new frame, not on every store change (busy, progress...) around it
  const snap = f?.snapshot, event = f?.event;
  const input = useMemo(() => (snap ? { snap, event: event ?? null } : null), [snap, event]);
  return {
    input,
    opts: {
      // no transitions while playing: each would restyle and repaint every
      // animation frame for a state the next step replaces anyway
      animMs: st.playing ? 0 : st.animMs,
      cache: st.selectedCache ?? 0,
      focusCpu: st.focusCpu,
      focusNode: st.focusNode,
      onSelectNode: (node) => store.selectNode(store.getState().focusNode === node ? null : node),
      selectedSlab: st.selectedSlab,
      onSelectSlab: (id) => store.selectSlab(id),
      onSelectCpu: (cpu) => store.selectCpu(store.getState().focusCpu === cpu ? null : cpu),
      siteFilter: st.siteFilter,
    },
  };
}
