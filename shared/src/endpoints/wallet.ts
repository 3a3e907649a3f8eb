/**
 * Wallet (/products/wallet; schemas/wallet.ts, wallet/model.ts). Reading needs the screen's route
 * key; every change (designs, issuing, voiding, redeeming, signing settings) `api:wallet.edit`.
 * Designs and passes belong to an app; the signing settings to the account (one Apple pass type
 * certificate and one Google issuer for every app).
 *
 * Failures: 10001 with `details` for a bad field (`message` a WalletIssue or WalletSigningIssue
 * code: unknown_placeholder, kind_mismatch, not_a_coupon, voided, invalid_certificate, key_mismatch,
 * key_required...); 30 for a design name in use in the app, or a card number already issued in it
 * (`card_taken`); 10 for an id of nothing or of another app or account (design, pass, person,
 * message, barcode); 10004 with `max_redeems_reached` for a coupon redeemed up to its limit.
 *
 * The public side (no session): `GET /w/:token` the pass's page, `/w/:token/pass.pkpass` the signed
 * Apple pass, `/w/:token/google` the redirect to the Google Wallet save link, `/w/:token/logo.png`
 * (api-server features/wallet/host.ts).
 */
import { z } from 'zod';
import {
  AppleSigningInput, GoogleSigningInput, IssueWalletPassInput, RedeemWalletPassInput, WalletCouponMessage, WalletDesign,
  WalletDesignInput, WalletPass, WalletPassesQuery, WalletRedemption, WalletSigning,
} from '../schemas/wallet.ts';
import { ep, none } from './define.ts';

const VIEW = 'route:/products/wallet' as const;
const EDIT = 'api:wallet.edit' as const;

export const walletEndpoints = {
  walletDesigns: ep({ method: 'GET', path: '/apps/:appId/wallet/designs', summary: "The app's pass designs (coupons and loyalty cards) with how many passes each issued", auth: VIEW, response: { designs: z.array(WalletDesign) } }),
  createWalletDesign: ep({ method: 'POST', path: '/apps/:appId/wallet/designs', summary: 'Create a pass design; a placeholder the kind does not have: 10001 unknown_placeholder; a name in use: 30', auth: EDIT, request: WalletDesignInput, response: { design: WalletDesign } }),
  updateWalletDesign: ep({ method: 'PUT', path: '/apps/:appId/wallet/designs/:designId', summary: 'Change a pass design (its kind stays while it has passes); passes already issued show it at their next download', auth: EDIT, request: WalletDesignInput, response: { design: WalletDesign } }),
  deleteWalletDesign: ep({ method: 'DELETE', path: '/apps/:appId/wallet/designs/:designId', summary: 'Delete a design and its passes (their links stop working; redemptions already recorded stay in the analytics)', auth: EDIT, response: none }),
  walletCouponMessages: ep({ method: 'GET', path: '/apps/:appId/wallet/coupon-messages', summary: 'The approved coupon messages of the app, with the promo code and max redeems a coupon pass takes from them', auth: VIEW, response: { messages: z.array(WalletCouponMessage) } }),
  walletPasses: ep({ method: 'GET', path: '/apps/:appId/wallet/passes', summary: 'Issued passes, newest first (at most 500), optionally of one design, with their redemptions and links', auth: VIEW, query: WalletPassesQuery, response: { passes: z.array(WalletPass) } }),
  issueWalletPass: ep({
    method: 'POST', path: '/apps/:appId/wallet/passes', auth: EDIT, request: IssueWalletPassInput, response: { pass: WalletPass },
    summary: 'Issue a pass to a person: a coupon from an approved coupon message (its promo code and max redeems), or a loyalty card with card number (Luhn) and security code',
  }),
  voidWalletPass: ep({ method: 'POST', path: '/apps/:appId/wallet/passes/:passId/void', summary: 'Void a pass: it can no longer be redeemed and the wallets show it as void', auth: EDIT, response: { pass: WalletPass } }),
  redeemWalletPass: ep({
    method: 'POST', path: '/apps/:appId/wallet/redeem', auth: EDIT, request: RedeemWalletPassInput, response: WalletRedemption.shape,
    summary: "Redeem the coupon pass whose barcode was scanned: recorded as the coupon message's redemption (redeems metric, \"coupon redeemed\" rules); past max redeems 10004",
  }),
  walletSigning: ep({ method: 'GET', path: '/wallet/signing', summary: "The account's Apple and Google Wallet signing settings (certificate fingerprint, issuer); keys are never answered", auth: VIEW, response: { signing: WalletSigning } }),
  putAppleWalletSigning: ep({
    method: 'PUT', path: '/wallet/signing/apple', auth: EDIT, request: AppleSigningInput, response: { signing: WalletSigning },
    summary: 'Set the Apple pass type certificate, its private key (sealed) and the WWDR certificate; the key must match the certificate (10001 key_mismatch)',
  }),
  putGoogleWalletSigning: ep({ method: 'PUT', path: '/wallet/signing/google', summary: 'Set the Google Wallet issuer and service account with its RSA private key (sealed)', auth: EDIT, request: GoogleSigningInput, response: { signing: WalletSigning } }),
  deleteWalletSigning: ep({ method: 'DELETE', path: '/wallet/signing/:provider', summary: 'Remove the Apple or Google signing settings (apple | google); 10 when none are set', auth: EDIT, response: none }),
} as const;
