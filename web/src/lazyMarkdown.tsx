// The lesson prose renderer, loaded on first use (issue 14): markdown-it and
// DOMPurify are a third of the app's JavaScript and only lessons need them.
// Until the chunk is in, the text shows unrendered in the same element.
import { lazy, Suspense, type ComponentProps } from 'react';
import type { Markdown as Eager } from './lessons/markdown';

type Props = ComponentProps<typeof Eager>;

const Loaded = lazy(() => import('./lessons/markdown').then((m) => ({ default: m.Markdown })));

export function Markdown(props: Props) {
  const Plain = props.inline ? 'span' : 'div';
  return (
    <Suspense fallback={<Plain className={props.className ?? 'md'}>{props.text}</Plain>}>
      <Loaded {...props} />
    </Suspense>
  );
}
