/**
 * The currency revenue is shown in. Decision (SPEC.md names no app currency; events carry an
 * optional ISO 4217 `currency` with their `revenue`, stored on each event): a revenue figure is
 * labelled with the one currency every revenue event it adds up named, and with none (a plain
 * number) when those events named several, or none. The rollup adds amounts of every currency up,
 * so a figure over several currencies is not in any one of them and says so by having none; no
 * app-level currency is invented (the home screen's key figures follow the same rule). The SQL
 * reading the currencies is `revenueCurrencies` (repository.ts) and the people profile's query.
 */

/** The one currency of a figure's revenue events, or null (none, not named, or several). */
export function singleCurrency(currencies: readonly (string | null)[]): string | null {
  const [only] = currencies;
  return currencies.length === 1 && only ? only : null;
}
