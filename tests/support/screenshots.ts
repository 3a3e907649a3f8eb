/**
 * `node tests/support/screenshots.ts [base] [outDir] [path ...]`: signs in as the demo Client and
 * screenshots each path at 1440x900 and 1280x720, in English and Spanish, for a person to look at.
 * Needs a running server with the demo data (npm start).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { DEMO_PASSWORD } from './env.ts';

const [base = 'http://127.0.0.1:4000', outDir = 'test-results/screens', ...paths] = process.argv.slice(2);
const targets = paths.length ? paths : ['/login', '/user/account', '/user/account/apps', '/user/account/users', '/admin/roles', '/behavior/funnels'];
const sizes = [{ name: 'desktop', width: 1440, height: 900 }, { name: 'laptop', width: 1280, height: 720 }];
const email = process.env.SCREEN_USER ?? 'client@demo.growthdeck.test';
mkdirSync(outDir, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
try {
  for (const size of sizes) {
    for (const lang of ['en', 'es']) {
      const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, locale: lang === 'es' ? 'es-ES' : 'en-US' });
      const page = await context.newPage();
      const signIn = targets.some((t) => !['/login', '/register', '/forgot-password'].includes(t));
      if (signIn) {
        await page.goto(`${base}/${lang}/login`);
        await page.locator('input[type="email"], input[name="email"]').first().fill(email);
        await page.locator('input[type="password"]').first().fill(DEMO_PASSWORD);
        await page.locator('button[type="submit"]').first().click();
        await page.waitForURL((url) => !url.pathname.endsWith('/login'), { timeout: 15_000 });
      }
      for (const target of targets) {
        if (['/login', '/register', '/forgot-password'].includes(target) && signIn) continue;
        await page.goto(`${base}/${lang}${target}`);
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(400);
        // A long query (a funnel in the URL) is cut: file names have a length limit.
        const file = path.join(outDir, `${size.name}-${lang}${target.replaceAll('/', '_').slice(0, 120) || '_root'}.png`);
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
}
