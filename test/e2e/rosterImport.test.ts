/**
 * Roster import and last days in a real browser (issue 28, parts 2 and 3): a
 * CSV with bad rows shows what is wrong on each line before anything happens,
 * and nobody is invited; the fixed file is imported, each row answered
 * (invited now, scheduled for its start date), and the scheduled start is on
 * the Employees screen as "Starts MM/DD/YYYY". A manager sets an employee's
 * last day on their profile and the Employees table shows it. Screenshots at
 * 375 and 1280 px go to SCREENSHOT_DIR when it is set; axe finds nothing
 * serious on any of these screens.
 */
import { type Day, dayIn, formatUsDay } from '@shared/domain/calendar';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { api, PASSWORD, uniqueEmail } from '../support/accountFlows';
import { launchBrowser, seriousViolations, shootAtWidths, signInPage } from '../support/browser';
import { Mailbox } from '../support/integrationStack';
import { joinTeamOverApi, setUpTeamOverApi } from '../support/teams';

const env = inject('e2e');
const mailbox = new Mailbox(env.mailboxUrl.replace(/\/$/, ''));

let browser: Awaited<ReturnType<typeof launchBrowser>> | undefined;
afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

function addDays(day: Day, n: number): Day {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

const csv = (lines: string[]) => ({
  name: 'roster.csv',
  mimeType: 'text/csv',
  buffer: Buffer.from(`First name,Last name,Email,Budget,Start date\n${lines.join('\n')}\n`),
});

describe('roster import', () => {
  it('shows each bad row before anything happens; the fixed file invites and schedules; a last day shows in the table', async () => {
    const manager = await setUpTeamOverApi(env.apiUrl, mailbox, { tourSeen: true });
    const member = await joinTeamOverApi(env.apiUrl, mailbox, manager, 25, {
      firstName: 'Lena',
      lastName: 'Leaving',
    });
    const me = (await api(env.apiUrl, 'GET', '/me', { token: manager.accessToken })).body;
    const today = dayIn(new Date(), me.timeZone);
    const later = addDays(today, 12);
    const now = uniqueEmail('ann');
    const soon = uniqueEmail('bob');
    const usLater = formatUsDay(later);

    browser = await launchBrowser();
    const page = await signInPage(browser.context, env.webUrl, manager.email, PASSWORD);
    await page.goto(`${env.webUrl}/dashboard/employees`);
    await page.getByRole('heading', { name: 'Employees', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Import roster' }).click();
    await page.getByRole('heading', { name: 'Import roster', level: 1 }).waitFor();

    const file = page.getByLabel('Roster file (CSV)');
    await file.setInputFiles(
      csv([
        `Ann,Lee,${now},25,`,
        `Bob,Diaz,${soon},40,${usLater}`,
        'Cy,Typo,cy-at-company.com,25,',
        `Dee,Rich,${uniqueEmail('dee')},20000,`,
        `Lena,Leaving,${member.email},25,`,
      ]),
    );
    const summary = page.getByTestId('roster-summary');
    await summary.getByText('2 rows need a fix. Nothing has been imported.').waitFor();
    const line = (n: number) => page.locator(`[data-line="${n}"] [data-row-text]`);
    expect(await line(2).textContent()).toBe('Will be invited now');
    expect(await line(3).textContent()).toBe(`Will be invited on ${usLater}`);
    expect(await line(4).textContent()).toBe('Not a valid email address');
    expect(await line(5).textContent()).toBe('Budget must be at most $10,000');
    expect(await line(6).textContent()).toBe('Already on the team: nothing to do');
    expect(await page.getByRole('button', { name: /^Import \d+ (people|person)$/ }).isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'roster-import-errors');
    // Nothing happened: nobody is invited or e-mailed.
    const employees = async () =>
      (await api(env.apiUrl, 'GET', '/employees', { token: manager.accessToken })).body;
    expect(JSON.stringify(await employees())).not.toContain(now);
    expect(await mailbox.to(now)).toEqual([]);

    // Fixed: the bad rows are out of the file; the member's row stays and changes nothing.
    await file.setInputFiles(
      csv([`Ann,Lee,${now},25,`, `Bob,Diaz,${soon},40,${usLater}`, `Lena,Leaving,${member.email},25,`]),
    );
    await summary.getByText('Every row is ready').waitFor();
    await page.getByRole('button', { name: 'Import 2 people' }).click();
    const results = page.getByTestId('roster-results');
    await results.getByText('1 invited now, 1 scheduled, 1 unchanged.').waitFor();
    expect(await line(2).textContent()).toBe('Invited');
    expect(await line(3).textContent()).toBe(`Scheduled: invited on ${usLater}`);
    expect(await line(4).textContent()).toBe('Already there: nothing changed');
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'roster-import-done');
    expect(await mailbox.to(now)).toHaveLength(1);
    const list = await employees();
    expect(list.employees.map((e: { email: string }) => e.email)).toContain(now);
    expect(list.scheduled.map((s: { email: string }) => s.email)).toEqual([soon]);

    // The employee's last day, set on their profile, shows in the table; the scheduled start below it.
    const lastDay = addDays(today, 30);
    await page.goto(`${env.webUrl}/editProfile/${member.userId}`);
    const section = page.getByTestId('last-day');
    await section.waitFor();
    await section.getByLabel('Last day').fill(lastDay);
    await section.getByRole('button', { name: 'Save last day' }).click();
    await section.getByText(`Last day: ${formatUsDay(lastDay)}`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'roster-last-day');

    await page.goto(`${env.webUrl}/dashboard/employees`);
    await page
      .locator(`[data-user-id="${member.userId}"]`)
      .getByText(`Last day ${formatUsDay(lastDay)}`)
      .waitFor();
    const start = page.locator(`[data-scheduled="${soon}"]`);
    await start.getByText(`Starts ${usLater}`).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shootAtWidths(page, 'roster-employees');
    await start.getByRole('button', { name: `Cancel the start of ${soon}` }).click();
    await start.waitFor({ state: 'detached' });
    expect((await employees()).scheduled).toEqual([]);
  });
});
