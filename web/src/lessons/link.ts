// Share links of the lesson player: the URL hash names a lesson and a stop.
//   #lessons                     the lesson list
//   #lesson=05-sheaves           a lesson (where the student left it)
//   #lesson=05-sheaves&stop=3    its stop number 3 (0-based; a stop id works too)

export interface LessonLink {
  /** null: the list */
  lesson: string | null;
  /** stop index, or a stop id; undefined: resume */
  stop?: number | string;
}

export function decodeLessonLink(hash: string): LessonLink | null {
  const h = hash.replace(/^#/, '');
  if (h === 'lessons') return { lesson: null };
  const p = new URLSearchParams(h);
  const id = p.get('lesson');
  if (id === null) return null;
  // any id: the player checks it against the lesson index and names an
  // unknown one (it is never used in a path before that)
  const s = p.get('stop');
  if (s === null || s === '') return { lesson: id };
  return { lesson: id, stop: /^\d+$/.test(s) ? Number(s) : s };
}

export function encodeLessonLink(l: LessonLink): string {
  if (!l.lesson) return '#lessons';
  const p = new URLSearchParams();
  p.set('lesson', l.lesson);
  if (l.stop !== undefined) p.set('stop', String(l.stop));
  return '#' + p.toString();
}
