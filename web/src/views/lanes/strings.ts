// The words of the CPU lanes, the lock view, the schedule picker and "step
// this CPU" (Lanes.tsx, LockView.tsx, SchedulePicker.tsx, and the renderer
// viz/lanes.ts through LanesText), from the message catalogs (i18n/):
// getters, so a language switch reads the new words at the next render.
import type { LanesText } from '../../viz/lanes';
import { t } from '../../i18n';

const lanes: LanesText = {
  cpu: (cpu) => t('lanes.cpu', { cpu }),
  axis: {
    get step() { return t('lanes.axisStep'); },
    get cycles() { return t('lanes.axisCycles'); },
  },
  get idle() { return t('lanes.idle'); },
  op: (op) => t('lanes.op', { op }),
  spins: (lock, owner) => (owner >= 0 ? t('lanes.spinsHeld', { lock, owner }) : t('lanes.spinsReleased', { lock })),
  spinsShort: (lock) => t('lanes.spinsShort', { lock }),
  holds: (cpu, lock, node) => t(node >= 0 ? 'lanes.holdsNode' : 'lanes.holds', { cpu, lock, node }),
  get hand() { return t('lanes.hand'); },
  get label() { return t('lanes.label'); },
};

export const STRINGS = {
  lanes,
  panel: {
    get title() { return t('lanes.panel.title'); },
    get windowLabel() { return t('lanes.panel.windowLabel'); },
    get windowUnit() { return t('lanes.panel.windowUnit'); },
    get windowAria() { return t('lanes.panel.windowAria'); },
    get axisTimed() { return t('lanes.panel.axisTimed'); },
    get axisStep() { return t('lanes.panel.axisStep'); },
    get region() { return t('lanes.panel.region'); },
    get key() { return t('lanes.panel.key'); },
    get keyAria() { return t('lanes.panel.keyAria'); },
    get empty() { return t('lanes.panel.empty'); },
    get busyOnly() { return t('lanes.panel.busyOnly'); },
    get busyOnlyTitle() { return t('lanes.panel.busyOnlyTitle'); },
  },
  step: {
    get title() { return t('lanes.step.title'); },
    get intro() { return t('lanes.step.intro'); },
    button: (cpu: number) => t('lanes.step.button', { cpu }),
    aria: (cpu: number) => t('lanes.step.aria', { cpu }),
    get pickAria() { return t('lanes.step.pickAria'); },
    get pickLabel() { return t('lanes.step.pickLabel'); },
    get stepPicked() { return t('lanes.step.stepPicked'); },
    get stepPickedAria() { return t('lanes.step.stepPickedAria'); },
    refused: {
      stopped: () => t('lanes.step.refused.stopped'),
      no_cpu: (cpu: number) => t('lanes.step.refused.no_cpu', { cpu }),
      waits: (cpu: number) => t('lanes.step.refused.waits', { cpu }),
      cannot: (cpu: number) => t('lanes.step.refused.cannot', { cpu }),
    } as Record<string, (cpu: number) => string>,
    get recorded() { return t('lanes.step.recorded'); },
    get recordedHelp() { return t('lanes.step.recordedHelp'); },
    get none() { return t('lanes.step.none'); },
    get clear() { return t('lanes.step.clear'); },
    get clearAria() { return t('lanes.step.clearAria'); },
    get stepsLine() { return t('lanes.step.stepsLine'); },
    get stepsLineAria() { return t('lanes.step.stepsLineAria'); },
    stepsLineHelp: (sched: string) => t(sched === 'serial' ? 'lanes.step.stepsLineHelpSerial' : 'lanes.step.stepsLineHelp', { sched }),
    dropped: (seq: number) => t('lanes.step.dropped', { seq }),
    badLink: () => t('lanes.step.badLink'),
  },
  sched: {
    get label() { return t('lanes.sched.label'); },
    get aria() { return t('lanes.sched.aria'); },
    own: (kind: string) => t('lanes.sched.own', { kind }),
    kinds: {
      get serial() { return t('lanes.sched.serial'); },
      get 'round-robin'() { return t('lanes.sched.roundRobin'); },
      get random() { return t('lanes.sched.random'); },
      get timed() { return t('lanes.sched.timed'); },
      get explicit() { return t('lanes.sched.explicit'); },
    } as Record<string, string>,
    get seedLabel() { return t('lanes.sched.seedLabel'); },
    get seedAria() { return t('lanes.sched.seedAria'); },
    get seedSet() { return t('lanes.sched.seedSet'); },
    get title() { return t('lanes.sched.title'); },
  },
  locks: {
    get title() { return t('lanes.locks.title'); },
    cache: (name: string) => t('lanes.locks.cache', { name }),
    get none() { return t('lanes.locks.none'); },
    cols: {
      get lock() { return t('lanes.locks.colLock'); },
      get holder() { return t('lanes.locks.colHolder'); },
      get spinners() { return t('lanes.locks.colSpinners'); },
    },
    // kernel names: the same in every language
    listLock: (node: number) => `n->list_lock (node ${node})`,
    barnLock: (node: number) => `barn->lock (node ${node})`,
    pcsLock: (classic: boolean) => (classic ? 'cpu_slab->lock' : 'cpu_sheaves->lock'),
    pcsHeld: (cpus: number[]) => (cpus.length ? cpus.map((c) => t('lanes.cpu', { cpu: c })).join(', ') : '—'),
    free: '—',
    heldBy: (cpu: number) => t('lanes.cpu', { cpu }),
    spinner: (cpu: number) => t('lanes.cpu', { cpu }),
    spinnersNone: '—',
    otherCaches: (n: number) => t(n === 1 ? 'lanes.locks.otherCaches.one' : 'lanes.locks.otherCaches.other', { n }),
  },
  legend: {
    get section() { return t('lanes.legend.section'); },
    get seg() { return t('lanes.legend.seg'); },
    get spin() { return t('lanes.legend.spin'); },
    get trylock() { return t('lanes.legend.trylock'); },
    get hold() { return t('lanes.legend.hold'); },
    get holder() { return t('lanes.legend.holder'); },
    get hand() { return t('lanes.legend.hand'); },
    get current() { return t('lanes.legend.current'); },
  },
};
