/**
 * The demo account for `npm start`: an iOS and an Android app and one user per role, all with the
 * password DEMO_PASSWORD. Idempotent: does nothing when the demo account exists. Later
 * capabilities add their demo data here.
 */
import { seedDemoIntegrations } from '../features/integrations/demo.ts';
import { BuiltInRole, BUILT_IN_ROLES } from '@gd/shared';
import { tx, type Db } from '../db/pool.ts';
import { provisionAccount } from '../features/accounts/provision.ts';
import { insertUser } from '../features/accounts/repository.ts';
import { insertApp } from '../features/apps/repository.ts';
import { newAppKey } from '../features/apps/routes.ts';
import { hashPassword } from '../features/auth/passwords.ts';
import { seedAcquisition } from './acquisition.ts';
import { seedDemoProviders } from '../features/acquisition/demo.ts';
import { seedSkan } from './skan.ts';
import { seedDemoCategories } from './categories.ts';
import { seedSkudo } from '../features/skudo/demo.ts';
import { seedDemoLandings } from '../features/landings/demo.ts';
import { seedDemoWallet } from '../features/wallet/demo.ts';

export const DEMO_PASSWORD = 'Demo-pass-2026!';
export const DEMO_DOMAIN = 'demo.growthdeck.test';
export const demoEmail = (role: BuiltInRole) => `${role.replace('_', '.')}@${DEMO_DOMAIN}`;

export interface DemoLogin { role: string; email: string; password: string }

export async function seedDemo(db: Db): Promise<{ created: boolean; logins: DemoLogin[] }> {
  const logins = BuiltInRole.map((role) => ({ role: BUILT_IN_ROLES[role].label, email: demoEmail(role), password: DEMO_PASSWORD }));
  const exists = await db.query('SELECT 1 FROM users WHERE email = $1', [demoEmail('client')]);
  if (exists.rowCount) return { created: false, logins };
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await tx(db, async (client) => {
    const { accountId, ownerId, roleIds } = await provisionAccount(client, {
      accountName: 'Demo Growth Co', plan: 'growth',
      owner: { name: 'Carmen Client', email: demoEmail('client'), passwordHash, jobDepartment: 'Management' },
    });
    const names: Record<BuiltInRole, string> = {
      client: 'Carmen Client', admin: 'Adrián Admin', manager: 'Marta Manager', client_pm: 'Pablo Product',
      agency: 'Ana Agency', author: 'Álex Author', analyst: 'Inés Analyst', provider: 'Pedro Provider',
    };
    for (const role of BuiltInRole) {
      if (role === 'client') continue;
      await insertUser(client, { accountId, email: demoEmail(role), name: names[role], passwordHash, roleId: roleIds[role] });
    }
    await insertApp(client, accountId, ownerId, newAppKey(), { name: 'Demo Shop iOS', os: 'iOS', bundleId: 'com.demo.shop', timezone: 'Europe/Madrid' });
    await insertApp(client, accountId, ownerId, newAppKey(), { name: 'Demo Shop Android', os: 'Android', bundleId: 'com.demo.shop', timezone: 'Europe/Madrid' });
  });
  // Campaigns, links and clicks of the demo apps; their installs come with the behaviour activity (seed/acquisition.ts).
  await seedAcquisition(db);
  // The account's providers, the paid sources tied to them and the demo Provider user as a member (features/acquisition/demo.ts).
  await seedDemoProviders(db, demoEmail('client'), demoEmail('provider'));
  // SKAdNetwork settings and postbacks of the iOS demo app (seed/skan.ts).
  await seedSkan(db, demoEmail('client'));
  // Categories of the account, on the demo apps, campaigns and messages (seed/categories.ts).
  await seedDemoCategories(db, demoEmail('client'));
  // Landing pages of the demo apps, the spring_sale powlink's web fallback (features/landings/demo.ts).
  await seedDemoLandings(db, demoEmail('client'));
  // A small skudo marketplace: providers, a campaign, offers, partners and tracking URLs with clicks (features/skudo/demo.ts).
  await seedSkudo(db, demoEmail('client'));
  // Pass designs of the demo apps, a coupon and a loyalty card, without signing settings (features/wallet/demo.ts).
  await seedDemoWallet(db, demoEmail('client'));
  // Integrations of the first demo app, one per kind and in every status (features/integrations/demo.ts).
  await seedDemoIntegrations(db, demoEmail('client'));
  return { created: true, logins };
}
