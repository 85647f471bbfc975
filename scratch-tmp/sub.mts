import { chromium } from 'playwright-core';
const base = 'http://127.0.0.1:3600';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const w of [375, 1280]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: 900 }, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  // The state a Stripe outage during an unfinished renewal leaves: the server's flag, set on the real answer.
  await page.route('**/api/subscription', async (route) => {
    const res = await route.fetch();
    const body = await res.json();
    await route.fulfill({ response: res, json: { ...body, chargeBeingConfirmed: true } });
  });
  await page.goto(`${base}/login`);
  await page.getByLabel(/email/i).first().fill('manager@demo.test');
  await page.getByLabel(/password/i).first().fill('demo-manager-pass');
  await page.getByRole('button', { name: /sign in|log in|login/i }).first().click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20000 });
  await page.goto(`${base}/dashboard/subscription`);
  await page.getByRole('button', { name: /close subscription/i }).first().click();
  await page.getByTestId('charge-being-confirmed').waitFor();
  await page.screenshot({ path: `/tmp/shots/sub-confirming-${w}.png` });
  await ctx.close();
}
await browser.close();
