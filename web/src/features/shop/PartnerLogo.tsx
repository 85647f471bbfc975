/**
 * Our own small wordmarks for the partners that have a logo in the spec (§9:
 * walmart, amazon, audible, cultureWorks, udemy), drawn inline: no image is
 * fetched from anyone. Other platforms show their name as text.
 */

import { platformNames, platformsWithLogo } from '@shared/domain/shopFilter';
import type { Platform } from '@shared/schemas/catalogue';
import type { ReactNode } from 'react';

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

interface Mark {
  width: number;
  body: ReactNode;
}

// The longer wordmarks are fitted to their boxes (textLength): a wider fallback font cut them
// short ("udem", "The Culture Wo").
const marks: Partial<Record<Platform, Mark>> = {
  walmart: {
    width: 92,
    body: (
      <>
        <text x="0" y="15" fill="#0062c0" fontFamily={FONT} fontSize="15" fontWeight="700">
          Walmart
        </text>
        <g transform="translate(83 10)" stroke="#c98a00" strokeWidth="2.2" strokeLinecap="round">
          {[0, 60, 120, 180, 240, 300].map((a) => (
            <line key={a} x1="0" y1="-2" x2="0" y2="-7" transform={`rotate(${a})`} />
          ))}
        </g>
      </>
    ),
  },
  amazon: {
    width: 70,
    body: (
      <>
        <text x="0" y="13" fill="#111111" fontFamily={FONT} fontSize="15" fontWeight="700">
          amazon
        </text>
        <path d="M4 16 Q32 23 58 16" fill="none" stroke="#c45500" strokeWidth="2.2" strokeLinecap="round" />
        <path d="M54 14 L59 16 L55 20" fill="none" stroke="#c45500" strokeWidth="2" strokeLinecap="round" />
      </>
    ),
  },
  audible: {
    width: 86,
    body: (
      <>
        <g fill="none" stroke="#b45309" strokeWidth="2" strokeLinecap="round">
          <path d="M1 13 Q8 1 15 13" />
          <path d="M4.5 13 Q8 6 11.5 13" />
          <circle cx="8" cy="13" r="1.3" fill="#b45309" stroke="none" />
        </g>
        <text x="18" y="15" fill="#1f2937" fontFamily={FONT} fontSize="15" fontWeight="700">
          audible
        </text>
      </>
    ),
  },
  cultureWorks: {
    width: 124,
    body: (
      <>
        <rect x="0" y="2" width="16" height="16" rx="3" fill="#0b5f5a" />
        <text
          x="8"
          y="14"
          fill="#ffffff"
          fontFamily={FONT}
          fontSize="10"
          fontWeight="700"
          textAnchor="middle"
          textLength="13"
          lengthAdjust="spacingAndGlyphs"
        >
          CW
        </text>
        <text
          x="21"
          y="14.5"
          fill="#0b5f5a"
          fontFamily={FONT}
          fontSize="12"
          fontWeight="700"
          textLength="102"
          lengthAdjust="spacingAndGlyphs"
        >
          The Culture Works
        </text>
      </>
    ),
  },
  udemy: {
    width: 66,
    body: (
      <>
        <path d="M2 6 L8 2 L14 6" fill="none" stroke="#5624d0" strokeWidth="2.2" strokeLinejoin="round" />
        <path d="M3 9 V13 a5 5 0 0 0 10 0 V9" fill="none" stroke="#5624d0" strokeWidth="2.4" />
        <text
          x="17"
          y="15"
          fill="#1c1d1f"
          fontFamily={FONT}
          fontSize="15"
          fontWeight="700"
          textLength="48"
          lengthAdjust="spacingAndGlyphs"
        >
          udemy
        </text>
      </>
    ),
  },
};

export function hasLogo(platform: Platform): boolean {
  return platformsWithLogo.includes(platform);
}

/**
 * The partner's wordmark, named for assistive technology; `decorative` when the
 * name is already said next to it (a link's text).
 */
export function PartnerLogo({ platform, decorative = false }: { platform: Platform; decorative?: boolean }) {
  const mark = marks[platform];
  const name = platformNames[platform];
  if (!mark) {
    return (
      <span className="shop-partner-name" aria-hidden={decorative || undefined}>
        {name}
      </span>
    );
  }
  return (
    <svg
      className="shop-partner-logo"
      viewBox={`0 0 ${mark.width} 22`}
      width={mark.width}
      height={22}
      role={decorative ? undefined : 'img'}
      aria-label={decorative ? undefined : name}
      aria-hidden={decorative || undefined}
      focusable="false"
    >
      {mark.body}
    </svg>
  );
}
