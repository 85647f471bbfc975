/**
 * Catalogue covers, drawn from the item itself: an SVG in the category's
 * colours with the title, author and media type. The same item always gives
 * the same bytes (no randomness, no clock), so covers cache well and tests can
 * compare them; nothing is fetched from a publisher or any other site.
 * The shop renders `coverDataUrl(item)` as the card's image (spec's imageUrl).
 */
import type { Category } from './skills';

export interface CoverInput {
  id: string;
  name: string;
  author: string;
  category: Category;
  media: 'book' | 'audiobook' | 'course' | 'assessment';
}

/** Background, accent and text colour per skill area; text contrast is at least 4.5:1 (WCAG AA). */
export const coverPalette: Record<Category, { background: string; accent: string; text: string }> = {
  Leadership: { background: '#1f3a5f', accent: '#f2b134', text: '#ffffff' },
  Relationship: { background: '#7a2e4d', accent: '#f7c6d9', text: '#ffffff' },
  'Critical Thinking': { background: '#234d3c', accent: '#9fd8b8', text: '#ffffff' },
  Attitude: { background: '#8a3b12', accent: '#ffd08a', text: '#ffffff' },
  Communication: { background: '#3d2f73', accent: '#b9acf2', text: '#ffffff' },
  Execution: { background: '#263238', accent: '#4dd0e1', text: '#ffffff' },
  'Emotional Intelligence': { background: '#5c2a6e', accent: '#e0b3f0', text: '#ffffff' },
};

const mediaLabel: Record<CoverInput['media'], string> = {
  book: 'BOOK',
  audiobook: 'AUDIOBOOK',
  course: 'ONLINE COURSE',
  assessment: 'ASSESSMENT',
};

export const COVER_WIDTH = 200;
export const COVER_HEIGHT = 300;
const TITLE_LINE_CHARS = 16;
const TITLE_MAX_LINES = 5;

/** FNV-1a, 32 bits: a small stable hash to vary the pattern between items. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) =>
    c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&apos;',
  );
}

/** Greedy word wrap; a word longer than a line is cut, and the last line ends in an ellipsis if text is left. */
export function wrapTitle(title: string, lineChars = TITLE_LINE_CHARS, maxLines = TITLE_MAX_LINES): string[] {
  const lines: string[] = [];
  let current = '';
  const words = title.split(/\s+/).filter(Boolean);
  for (const word of words) {
    const piece = word.length > lineChars ? `${word.slice(0, lineChars - 1)}…` : word;
    if (current === '') current = piece;
    else if (current.length + 1 + piece.length <= lineChars) current += ` ${piece}`;
    else {
      lines.push(current);
      current = piece;
    }
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] as string;
  kept[maxLines - 1] = `${last.length >= lineChars ? last.slice(0, lineChars - 1) : last}…`;
  return kept;
}

export function coverSvg(item: CoverInput): string {
  const { background, accent, text } = coverPalette[item.category];
  const h = hash32(item.id);
  // Three decorative circles whose places come from the id: covers of one area look related, not identical.
  const circles = [0, 1, 2]
    .map((i) => {
      const bits = (h >>> (i * 10)) & 0x3ff;
      const cx = 20 + (bits % 160);
      const cy = 190 + ((bits >> 3) % 70);
      const r = 18 + ((bits >> 5) % 30);
      return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${accent}" fill-opacity="${(0.15 + i * 0.1).toFixed(2)}"/>`;
    })
    .join('');
  const title = wrapTitle(item.name)
    .map((line, i) => `<tspan x="16" dy="${i === 0 ? 0 : 22}">${escapeXml(line)}</tspan>`)
    .join('');
  const author = escapeXml(item.author.length > 28 ? `${item.author.slice(0, 27)}…` : item.author);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${COVER_WIDTH}" height="${COVER_HEIGHT}" ` +
    `viewBox="0 0 ${COVER_WIDTH} ${COVER_HEIGHT}" role="img" aria-label="${escapeXml(`${item.name} by ${item.author}`)}">` +
    `<rect width="${COVER_WIDTH}" height="${COVER_HEIGHT}" fill="${background}"/>` +
    circles +
    `<rect x="0" y="0" width="${COVER_WIDTH}" height="6" fill="${accent}"/>` +
    `<text x="16" y="30" fill="${accent}" font-family="system-ui, sans-serif" font-size="11" font-weight="700" letter-spacing="1.5">${mediaLabel[item.media]}</text>` +
    `<text x="16" y="66" fill="${text}" font-family="Georgia, serif" font-size="19" font-weight="700">${title}</text>` +
    `<text x="16" y="${COVER_HEIGHT - 20}" fill="${text}" font-family="system-ui, sans-serif" font-size="12">${author}</text>` +
    '</svg>'
  );
}

/** The cover as an `<img src>`: no request, nothing from another site. */
export function coverDataUrl(item: CoverInput): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(coverSvg(item))}`;
}
