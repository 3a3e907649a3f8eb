/**
 * Wallet routes (shared endpoints/wallet.ts): pass designs, issuing, voiding and redeeming passes
 * of an app, and the account's signing settings. A design, pass, person, message or barcode of
 * another app or account answers exactly what an unused one answers (10) and changes nothing.
 *
 * Redeeming goes through the record the SDK's coupon redemptions use (`message_redemptions`,
 * client id `wallet:<pass>:<uuid>`): it counts in the message's redeems metric and wakes the
 * "coupon redeemed" rules (rules/engine.ts `consumeRedemptions` reads that table). The pass's row
 * is locked while deciding, so two scans of one pass are decided one at a time and max redeems
 * holds. Max redeems counts the person's redemptions of the coupon message, however they came
 * (SDK or wallet), as the SDK's redeem does.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Router } from 'express';
import { ErrorCode, fail, ok, type FieldIssue, type Failure, type Result } from '@gd/shared';
import { MAX_REDEEMS_REACHED } from '@gd/shared/schemas/sdkMessages';
import { WalletProvider, type WalletIssue, type WalletPass } from '@gd/shared/schemas/wallet';
import { PASS_CODE_ALPHABET, designProblems } from '@gd/shared/wallet/model';
import { tx } from '../../db/pool.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Deps } from '../../http/context.ts';
import { route } from '../../http/endpoint.ts';
import { isUuid } from '../../http/validate.ts';
import { newPassToken, walletBaseUrl } from './host.ts';
import * as repo from './repository.ts';
import { configuredProviders, deleteSigning, saveAppleSigning, saveGoogleSigning, signingOf } from './signing.ts';
import { sealSecurityCode } from './values.ts';

const issue = (path: string, message: WalletIssue): FieldIssue => ({ path, message });
const notFound = (what: string, path?: string) => fail(ErrorCode.NOT_EXIST, `No such ${what} in this app`, path ? [issue(path, 'not_found')] : undefined);
const invalid = (details: FieldIssue[]) => fail(ErrorCode.MANDATORY, details.map((d) => `${d.path}: ${d.message}`).join('; '), details);
const nameTaken = () => fail(ErrorCode.NAME_DUPLICATED, 'The app already has a pass design with that name', [{ path: 'name', message: 'name_taken' }]);

/** A coupon pass's redemption code (shared PASS_CODE_PATTERN). */
const passCode = () => Array.from({ length: 12 }, () => PASS_CODE_ALPHABET[randomInt(PASS_CODE_ALPHABET.length)]).join('');

/** The answer of a pass: its links, the wallets' only where the account signs for them; never the security code. */
export function passAnswer(row: repo.PassRow, base: string, providers: ReadonlySet<string>): WalletPass {
  const publicUrl = `${base}/${row.token}`;
  return {
    id: row.id, designId: row.design_id, designName: row.design_name, kind: row.kind, status: row.status, personId: row.person_id, customerId: row.customer_id,
    barcode: row.barcode, messageId: row.message_id, messageName: row.message_name, promoCode: row.promo_code, maxRedeems: row.max_redeems, redeems: row.message_id ? row.redeems : 0,
    cardNumber: row.card_number, memberName: row.member_name, hasSecurityCode: row.secret !== null,
    publicUrl, appleUrl: providers.has('apple') ? `${publicUrl}/pass.pkpass` : null, googleUrl: providers.has('google') ? `${publicUrl}/google` : null,
    createdAt: row.created_at.toISOString(),
  };
}

export function walletRoutes(router: Router, deps: Deps): void {
  const { db } = deps;
  const answerOf = async (accountId: string, row: repo.PassRow) => passAnswer(row, walletBaseUrl(deps), await configuredProviders(db, accountId));

  route(router, deps, 'walletDesigns', async ({ app }) => ok({ designs: await repo.listDesigns(db, app.id) }));

  route(router, deps, 'createWalletDesign', async ({ app, principal, body }) => {
    const problems = designProblems(body.kind, body.design);
    if (problems.length) return invalid(problems.map((p) => issue(['design', ...p.path].join('.'), p.code)));
    try {
      return ok({ design: await repo.insertDesign(db, { accountId: principal.account.id, appId: app.id, userId: principal.user.id, ...body }) });
    } catch (error) {
      if (isUniqueViolation(error, 'wallet_designs_app_name')) return nameTaken();
      throw error;
    }
  });

  route(router, deps, 'updateWalletDesign', async ({ app, params, body }) => {
    const id = params.designId ?? '';
    const current = isUuid(id) ? await repo.findDesign(db, app.id, id) : undefined;
    if (!current) return notFound('pass design');
    const problems = designProblems(body.kind, body.design).map((p) => issue(['design', ...p.path].join('.'), p.code));
    if (current.kind !== body.kind && current.passes > 0) problems.push(issue('kind', 'kind_locked'));
    if (problems.length) return invalid(problems);
    try {
      const design = await repo.updateDesign(db, app.id, id, body);
      return design ? ok({ design }) : notFound('pass design');
    } catch (error) {
      if (isUniqueViolation(error, 'wallet_designs_app_name')) return nameTaken();
      throw error;
    }
  });

  route(router, deps, 'deleteWalletDesign', async ({ app, params }) => {
    const id = params.designId ?? '';
    return isUuid(id) && (await repo.deleteDesign(db, app.id, id)) ? ok({}) : notFound('pass design');
  });

  route(router, deps, 'walletCouponMessages', async ({ app }) => ok({ messages: await repo.couponMessages(db, app.id) }));

  route(router, deps, 'walletPasses', async ({ app, principal, query }) => {
    const rows = await repo.listPasses(db, app.id, query.designId);
    const providers = await configuredProviders(db, principal.account.id);
    const base = walletBaseUrl(deps);
    return ok({ passes: rows.map((r) => passAnswer(r, base, providers)) });
  });

  route(router, deps, 'issueWalletPass', async ({ app, principal, body }) => {
    const design = await repo.findDesign(db, app.id, body.designId);
    if (!design) return notFound('pass design', 'designId');
    if (design.kind !== body.kind) return invalid([issue('kind', 'kind_mismatch')]);
    const person = await repo.personOf(db, app.id, body.personId);
    if (!person) return notFound('person', 'personId');
    const id = randomUUID();
    const common = { id, accountId: principal.account.id, appId: app.id, designId: design.id, personId: person.id, token: newPassToken(), userId: principal.user.id };
    let pass: repo.NewPass;
    if (body.kind === 'coupon') {
      const coupon = await repo.couponMessage(db, app.id, body.messageId);
      if (!coupon) return notFound('approved coupon message', 'messageId');
      pass = { ...common, kind: 'coupon', barcode: passCode(), messageId: coupon.id, variantId: coupon.variantId, promoCode: coupon.promoCode, maxRedeems: coupon.maxRedeems };
    } else {
      pass = { ...common, kind: 'loyalty', barcode: body.cardNumber, cardNumber: body.cardNumber, memberName: body.memberName, secret: sealSecurityCode(deps.secret, id, body.securityCode) };
    }
    try {
      await repo.insertPass(db, pass);
    } catch (error) {
      if (isUniqueViolation(error, 'wallet_passes_app_barcode') && body.kind === 'loyalty') {
        return fail(ErrorCode.NAME_DUPLICATED, 'A pass with this card number is already issued in this app', [issue('cardNumber', 'card_taken')]);
      }
      throw error;
    }
    const row = await repo.findPass(db, app.id, id);
    return row ? ok({ pass: await answerOf(principal.account.id, row) }) : notFound('pass');
  });

  route(router, deps, 'voidWalletPass', async ({ app, principal, params }) => {
    const id = params.passId ?? '';
    if (!isUuid(id) || !(await repo.voidPass(db, app.id, id))) return notFound('pass');
    const row = await repo.findPass(db, app.id, id);
    return row ? ok({ pass: await answerOf(principal.account.id, row) }) : notFound('pass');
  });

  route(router, deps, 'redeemWalletPass', async ({ app, principal, body }) => {
    const now = new Date();
    const decided = await tx(db, async (client): Promise<Result<{ passId: string; redeems: number; left: number | null }>> => {
      const locked = await repo.lockPassByBarcode(client, app.id, body.barcode);
      const pass = locked && (await repo.findPass(client, app.id, locked.id));
      if (!pass) return notFound('pass with this barcode', 'barcode');
      if (pass.kind !== 'coupon' || !pass.message_id || pass.promo_code === null) return invalid([issue('barcode', 'not_a_coupon')]);
      if (pass.status !== 'active') return invalid([issue('barcode', 'voided')]);
      const redeems = await repo.redeemCount(client, pass.message_id, pass.person_id);
      const max = pass.max_redeems && pass.max_redeems > 0 ? pass.max_redeems : null;
      if (max !== null && redeems >= max) {
        const refused: Failure = {
          ok: false, code: ErrorCode.NO_PERMISSION, httpStatus: 409, details: [{ path: 'barcode', message: MAX_REDEEMS_REACHED }],
          message: `${MAX_REDEEMS_REACHED}: this person has redeemed the coupon ${max} times, its limit`,
        };
        return refused;
      }
      await repo.insertRedemption(client, {
        appId: app.id, messageId: pass.message_id, variantId: pass.variant_id, personId: pass.person_id, promoCode: pass.promo_code, clientId: `wallet:${pass.id}:${randomUUID()}`, at: now,
      });
      return ok({ passId: pass.id, redeems: redeems + 1, left: max === null ? null : max - redeems - 1 });
    });
    if (!decided.ok) return decided;
    const row = await repo.findPass(db, app.id, decided.value.passId);
    // Wake the rules loop (coupon rules read redemptions) when it runs in this process.
    deps.notifyTriggers?.();
    if (!row) return notFound('pass');
    return ok({ pass: await answerOf(principal.account.id, row), redeems: decided.value.redeems, redeemsLeft: decided.value.left });
  });

  // Signing settings of the account.
  route(router, deps, 'walletSigning', async ({ principal }) => ok({ signing: await signingOf(db, principal.account.id) }));

  route(router, deps, 'putAppleWalletSigning', async ({ principal, body }) => {
    const issues = await saveAppleSigning(db, deps.secret, principal.account.id, body);
    return issues.length ? invalid(issues) : ok({ signing: await signingOf(db, principal.account.id) });
  });

  route(router, deps, 'putGoogleWalletSigning', async ({ principal, body }) => {
    const issues = await saveGoogleSigning(db, deps.secret, principal.account.id, body);
    return issues.length ? invalid(issues) : ok({ signing: await signingOf(db, principal.account.id) });
  });

  route(router, deps, 'deleteWalletSigning', async ({ principal, params }) => {
    const provider = WalletProvider.safeParse(params.provider);
    if (!provider.success || !(await deleteSigning(db, principal.account.id, provider.data))) return fail(ErrorCode.NOT_EXIST, 'No signing settings of that wallet');
    return ok({});
  });
}
