/**
 * The walkthrough tour on the dashboard (spec §4), shown until the person
 * finishes or skips it; either is stored on the server (POST /me/walkthrough),
 * so it does not come back on another device.
 *
 * driver.js draws it: a maintained, dependency-free tour library (~7 KB gzip)
 * whose popover is a labelled dialog, with arrow keys to move and Escape to
 * close. It is loaded with this component, only for people who have not seen
 * the tour.
 */
import 'driver.js/dist/driver.css';
import type { Role } from '@shared/schemas/me';
import { driver } from 'driver.js';
import { useEffect } from 'react';
import { call } from '../../api/client';
import { useSession } from '../../auth/sessionStore';
import { TOUR_DONE_LABEL, TOUR_IN_MENU_HINT, TOUR_MENU_TARGET, type TourStep, tourFor } from './tourSteps';

/** On screen: laid out, and not moved off it (a phone's closed menu slides out to the left). */
function onScreen(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && box.right > 0 && box.left < window.innerWidth;
}

function visibleTarget(target: string): Element | undefined {
  // The first one on screen: a phone folds the search and the side menu into the menu.
  return [...document.querySelectorAll(`[data-tour="${target}"]`)].find(onScreen);
}

/** Where a step points: its target, else the phone's menu button (with a hint), else nowhere (centred). */
function placeStep(step: TourStep): { element?: Element; description: string } {
  const target = visibleTarget(step.target);
  if (target) return { element: target, description: step.description };
  const menu = visibleTarget(TOUR_MENU_TARGET);
  if (menu) return { element: menu, description: `${step.description} ${TOUR_IN_MENU_HINT}` };
  return { description: step.description };
}

export function Walkthrough({ role }: { role: Role }) {
  useEffect(() => {
    // Leaving the page closes the tour without counting it as seen.
    let leaving = false;
    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    const tour = driver({
      animate: !reducedMotion,
      smoothScroll: !reducedMotion,
      allowClose: true,
      allowKeyboardControl: true,
      showProgress: true,
      progressText: 'Step {{current}} of {{total}}',
      nextBtnText: 'Next',
      prevBtnText: 'Back',
      doneBtnText: TOUR_DONE_LABEL,
      popoverClass: 'lb-tour',
      steps: tourFor(role).map((step) => {
        const { element, description } = placeStep(step);
        return { element, popover: { title: step.title, description } };
      }),
      onDestroyed: () => {
        if (leaving) return;
        // Finished, skipped with Escape or closed: either way it is not shown again.
        void call('finishWalkthrough', {})
          .then(() => useSession.getState().reloadMe())
          .catch(() => undefined);
      },
    });
    tour.drive();
    return () => {
      leaving = true;
      if (tour.isActive()) tour.destroy();
    };
  }, [role]);
  return null;
}
