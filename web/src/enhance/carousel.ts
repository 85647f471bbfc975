/**
 * The landing page's skill carousel (spec §1, §9): a new word every 2 s, each
 * change fading out and in over 1 s in all (0.5 s out, 0.5 s in), so every word
 * is fully shown for 1 s. Plain DOM code shared by the static page and the SPA.
 *
 * The "fade" is a wipe (a moving clip), never a change of opacity or colour:
 * every visible pixel of the word keeps its full contrast at every moment, so
 * an accessibility scan that lands mid-change still passes (a half-faded word
 * was once reported as failing colour contrast).
 *
 * Accessibility: the moving word is aria-hidden (the full list is in the text
 * next to it, for screen readers and for readers without JavaScript); a
 * Pause/Play button stops it (WCAG 2.2.2); people who prefer reduced motion
 * get a still word and no button. Without JavaScript the first word stays and
 * the button stays invisible (marketing.css shows it by the root's data-state).
 */
import { SKILL_CAROUSEL_FADE_MS, SKILL_CAROUSEL_INTERVAL_MS } from '../content/timings';

/** Hidden behind a clip from the right; fully shown; hidden behind a clip from the left. */
const CLIP_BEFORE = 'inset(0 100% 0 0)';
const CLIP_SHOWN = 'inset(0 0 0 0)';
const CLIP_AFTER = 'inset(0 0 0 100%)';

/**
 * Keyframes of one word's 2 s on screen: wiped in from the left, held, wiped
 * out to the right. Only the clip moves, so the word's colour never changes.
 */
export function carouselKeyframes(intervalMs: number, fadeMs: number): Keyframe[] {
  const half = fadeMs / 2 / intervalMs;
  return [
    { clipPath: CLIP_BEFORE, offset: 0 },
    { clipPath: CLIP_SHOWN, offset: half },
    { clipPath: CLIP_SHOWN, offset: 1 - half },
    { clipPath: CLIP_AFTER, offset: 1 },
  ];
}

/** The index after `index`, wrapping round. */
export function nextIndex(index: number, length: number): number {
  return length === 0 ? 0 : (index + 1) % length;
}

/** Starts the carousel inside `root` ([data-carousel]); returns a function that stops it. */
export function startCarousel(root: HTMLElement): () => void {
  const word = root.querySelector<HTMLElement>('[data-carousel-word]');
  const button = root.querySelector<HTMLButtonElement>('[data-carousel-pause]');
  const words = (root.dataset.words ?? '').split('|').filter(Boolean);
  if (!word || words.length < 2 || typeof word.animate !== 'function') return () => {};
  const view = root.ownerDocument.defaultView ?? window;
  const reduced = view.matchMedia('(prefers-reduced-motion: reduce)');
  const keyframes = carouselKeyframes(SKILL_CAROUSEL_INTERVAL_MS, SKILL_CAROUSEL_FADE_MS);

  let index = Math.max(0, words.indexOf(word.textContent ?? ''));
  let animation: Animation | undefined;
  let pausedByUser = false;

  const show = (startAt: number) => {
    animation?.cancel();
    animation = word.animate(keyframes, { duration: SKILL_CAROUSEL_INTERVAL_MS });
    animation.currentTime = startAt;
    animation.onfinish = () => {
      index = nextIndex(index, words.length);
      word.textContent = words[index] ?? '';
      show(0);
    };
  };
  const stop = () => {
    if (animation) animation.onfinish = null;
    animation?.cancel(); // back to fully visible: the word on screen stays
    animation = undefined;
  };
  const sync = () => {
    if (button) {
      button.textContent = pausedByUser ? 'Play' : 'Pause';
      button.setAttribute(
        'aria-label',
        pausedByUser ? 'Play the skills animation' : 'Pause the skills animation',
      );
    }
    root.dataset.state = reduced.matches ? 'still' : pausedByUser ? 'paused' : 'playing';
    if (reduced.matches || pausedByUser) stop();
    // Start with the current word already fully visible.
    else if (!animation) show(SKILL_CAROUSEL_FADE_MS / 2);
  };

  const onButton = () => {
    pausedByUser = !pausedByUser;
    sync();
  };
  button?.addEventListener('click', onButton);
  reduced.addEventListener('change', sync);
  sync();

  return () => {
    button?.removeEventListener('click', onButton);
    reduced.removeEventListener('change', sync);
    stop();
    delete root.dataset.state;
  };
}
