// Lesson prose: Markdown rendered by markdown-it with raw HTML disabled
// (any "<tag>" in the source shows as text), and the result sanitized by
// DOMPurify before it reaches the DOM.
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });

// links leave the app in a new tab
const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const t = tokens[idx];
  const href = t.attrGet('href') ?? '';
  if (/^https?:/i.test(href)) {
    t.attrSet('target', '_blank');
    t.attrSet('rel', 'noopener noreferrer');
  }
  return defaultLink(tokens, idx, options, env, self);
};

const PURIFY = { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] };

/** Markdown to sanitized HTML (block). Code blocks scroll, so they take
 * the keyboard focus. */
export function renderMarkdown(text: string): string {
  return (DOMPurify.sanitize(md.render(text), PURIFY) as string).replace(/<pre>/g, '<pre tabindex="0">');
}

/** Markdown to sanitized HTML (one line: no paragraph). */
export function renderInline(text: string): string {
  return DOMPurify.sanitize(md.renderInline(text), PURIFY) as string;
}

export function Markdown({ text, inline = false, className }: { text: string; inline?: boolean; className?: string }) {
  const html = useMemo(() => (inline ? renderInline(text) : renderMarkdown(text)), [text, inline]);
  return inline ? (
    <span className={className ?? 'md'} dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <div className={className ?? 'md'} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
