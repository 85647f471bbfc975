/** How the app words dormancy (docs/decisions.md "Dormancy"). */
import { formatUsDay as usDay } from '@shared/domain/calendar';
import type { DormancyView } from '@shared/schemas/me';

export function managerDormancyNote(d: DormancyView): string | null {
  if (d.stage === 'dormant')
    return 'Dormant: no purchase in 13 months. Reactivate them, or reallocate or redeem their money.';
  if (d.inactiveFrom && (d.stage === 'warned' || d.stage === 'noticed'))
    return `No purchase for 11 months or more: the card stops on ${usDay(d.inactiveFrom)} unless they buy something or you reactivate them.`;
  return null;
}

export function employeeDormancyNote(d: DormancyView): { title: string; text: string } | null {
  if (d.stage === 'dormant')
    return {
      title: 'Your card is inactive',
      text: 'Your card was not used for 13 months, so it is inactive and your budget is paused. Your manager can reactivate it.',
    };
  if (d.stage === 'noticed' && d.inactiveFrom)
    return {
      title: 'Your card has not been used in a year',
      text: `Make a purchase before ${usDay(d.inactiveFrom)} to keep it active; otherwise it becomes inactive and your budget is paused.`,
    };
  return null;
}
