import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import { isSitePath, parseInline } from './richText';

/** Renders one string of the public copy's inline markup (see richText.ts). */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {parseInline(text).map((part, index) => {
        const key = `${index}-${part.kind}`;
        if (part.kind === 'strong') return <strong key={key}>{part.text}</strong>;
        if (part.kind === 'link') {
          if (isSitePath(part.href)) {
            return (
              <Link key={key} to={part.href}>
                {part.text}
              </Link>
            );
          }
          const external = /^https?:/.test(part.href);
          return (
            <a key={key} href={part.href} rel={external ? 'noopener noreferrer' : undefined}>
              {part.text}
            </a>
          );
        }
        return <Fragment key={key}>{part.text}</Fragment>;
      })}
    </>
  );
}

/** Paragraphs of copy: one <p> per string. */
export function Paragraphs({ items }: { items: readonly string[] }) {
  return (
    <>
      {items.map((text) => (
        <p key={text}>
          <RichText text={text} />
        </p>
      ))}
    </>
  );
}
