import { Fragment } from 'react';
import { emailParts, mayBreakInside } from './emailParts';

/**
 * An e-mail address that wraps only after "@" or "." (emailParts.ts): each
 * part stays on one line, and only a part too long for any cell breaks where
 * it must. `overflow-wrap: anywhere` on the whole address, as before, let the
 * table shrink the column to a letter's width and split it mid-word.
 */
export function Email({ address }: { address: string }) {
  const parts = emailParts(address);
  return (
    <>
      {parts.map((part, i) => (
        // Parts repeat ("a.b.a"), so their place is their key; the list never reorders.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Fragment key={i}>
          <span style={mayBreakInside(part) ? { overflowWrap: 'anywhere' } : { whiteSpace: 'nowrap' }}>
            {part}
          </span>
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
