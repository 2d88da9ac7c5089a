// The header's lessons button: in the main chunk; its first press loads the
// player (mount.ts).
import { t } from '../i18n';
import { useStore } from '../views/hooks';
import { lessonsFor, useLessonState } from './mount';

export function LessonsButton() {
  const l = lessonsFor(useStore());
  const st = useLessonState();
  return (
    <button type="button" className="lessons-toggle" aria-pressed={st.open} onClick={() => (st.open ? l.close() : void l.showList())}>
      {t('les.lessons')}
    </button>
  );
}
