/**
 * The monthly e-mails (issue 26, point 5): the employee's nudge (their balance
 * and three catalogue picks) and the manager's digest (last month's
 * utilisation, top skill areas, who has not spent for 3 months, receipts
 * outstanding). The texts are pure functions of what they show, so tests
 * read them without sending; each carries a one-click unsubscribe (RFC 8058:
 * the List-Unsubscribe and List-Unsubscribe-Post headers for the mail client,
 * a link to a page with a button in the body, since a GET must change nothing
 * when a mail scanner opens it) and names the profile setting.
 */
import { formatCents } from '@shared/domain/money';
import { monthInWords } from '@shared/domain/monthWords';
import type { MonthlyEmailKind } from '@shared/domain/nudges';
import type { CatalogueItem, Media } from '@shared/schemas/catalogue';
import type { InsightsAnswer, InsightsPeopleAnswer } from '@shared/schemas/insights';
import { type OutgoingEmail, sendEmail } from '../../adapters/email';
import { webConfig } from '../../platform/config';

function link(path: string): string {
  return new URL(path, webConfig().WEB_ORIGIN).toString();
}

/** The profile setting that turns each e-mail off, as Edit Profile labels it. */
export const SETTING_LABEL: Record<MonthlyEmailKind, string> = {
  nudge: 'Monthly nudges',
  digest: 'Monthly digest',
};

const MEDIA_WORDS: Record<Media, string> = {
  book: 'book',
  audiobook: 'audiobook',
  course: 'online course',
  assessment: 'assessment',
};

/** The two links of an unsubscribe token: the page (body) and the one-click endpoint (header). */
export function unsubscribeLinks(token: string) {
  const query = `?token=${encodeURIComponent(token)}`;
  return { page: link(`/unsubscribe${query}`), oneClick: link(`/api/email/unsubscribe${query}`) };
}

function footer(kind: MonthlyEmailKind, token: string): string[] {
  const what = kind === 'nudge' ? 'this nudge' : 'this digest';
  return [
    '',
    `You get ${what} once a month. To stop it, unsubscribe here: ${unsubscribeLinks(token).page}`,
    `or turn off "${SETTING_LABEL[kind]}" on your profile: ${link('/editProfile')}`,
  ];
}

export interface ComposedEmail {
  subject: string;
  text: string;
}

export interface NudgeFacts {
  firstName: string;
  balanceCents: number;
  picks: readonly CatalogueItem[];
  unsubscribeToken: string;
}

function pickLine(item: CatalogueItem): string {
  const price = item.discountPriceCents ?? item.priceCents;
  const cost = price === undefined ? '' : `, ${formatCents(price)}`;
  return `- ${item.name} by ${item.author} (${MEDIA_WORDS[item.media]}, ${item.category}${cost}): ${link(`/shop?item=${encodeURIComponent(item.id)}`)}`;
}

export function nudgeEmail(facts: NudgeFacts): ComposedEmail {
  const balance = formatCents(facts.balanceCents);
  return {
    subject: `You have ${balance} to spend on learning`,
    text: [
      `Hi ${facts.firstName},`,
      '',
      `You have ${balance} on your learning card, and nothing bought with it this month yet.`,
      ...(facts.picks.length
        ? [
            '',
            'Three picks for you this month, from skill areas you have not explored yet where we can:',
            ...facts.picks.map(pickLine),
          ]
        : []),
      '',
      `Shop the catalogue: ${link('/shop')}`,
      ...footer('nudge', facts.unsubscribeToken),
    ].join('\n'),
  };
}

/** People named in the digest before "and N more". */
export const DIGEST_NAMES = 10;
/** Skill areas the digest lists. */
export const DIGEST_AREAS = 3;

function percent(utilisation: number): string {
  return `${Math.round(utilisation * 100)}%`;
}

export interface DigestFacts {
  firstName: string;
  insights: InsightsAnswer;
  people: InsightsPeopleAnswer;
  unsubscribeToken: string;
}

/** The manager's digest of one month (the insights' period), from the Insights answers. */
export function digestEmail(facts: DigestFacts): ComposedEmail {
  const { insights, people } = facts;
  const month = monthInWords(insights.period.to);
  const { fundedCents, spentCents, utilisation } = insights.totals;
  const use =
    utilisation === null
      ? `Budget used: nothing was funded; ${formatCents(spentCents)} spent.`
      : `Budget used: ${percent(utilisation)} (${formatCents(spentCents)} spent of ${formatCents(fundedCents)} funded).`;
  const areas = insights.bySkill
    .filter((slice) => slice.cents > 0)
    .sort((a, b) => b.cents - a.cents || a.key.localeCompare(b.key))
    .slice(0, DIGEST_AREAS)
    .map((slice) => `${slice.key} ${formatCents(slice.cents)}`);
  // The quietest first: those whose money is nearest to the pool.
  const quiet = people.quiet;
  const named = quiet.people
    .slice(0, DIGEST_NAMES)
    .map((p) => p.name)
    .join(', ');
  const more = quiet.count > DIGEST_NAMES ? ` and ${quiet.count - DIGEST_NAMES} more` : '';
  const { count, cents } = insights.receiptsOutstanding;
  return {
    subject: `Your team's learning budget in ${month}`,
    text: [
      `Hi ${facts.firstName},`,
      '',
      `Here is how your team used its learning budget in ${month}.`,
      '',
      use,
      `Top skill areas: ${areas.length ? areas.join(', ') : 'no purchases'}.`,
      `Not spent for 3 months: ${quiet.count ? `${named}${more}` : 'nobody'}.`,
      `Receipts outstanding: ${count === 0 ? 'none' : `${count} (${formatCents(cents)})`}.`,
      '',
      `See the details: ${link('/dashboard/insights')}`,
      ...footer('digest', facts.unsubscribeToken),
    ].join('\n'),
  };
}

/** Sends a composed monthly e-mail with its one-click unsubscribe headers. */
export async function sendMonthlyEmail(to: string, email: ComposedEmail, token: string) {
  const message: OutgoingEmail = {
    to: [to],
    subject: email.subject,
    text: email.text,
    headers: [
      { name: 'List-Unsubscribe', value: `<${unsubscribeLinks(token).oneClick}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ],
  };
  await sendEmail(message);
}
