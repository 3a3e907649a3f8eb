/**
 * The world the generated people live in: a shopping app's audience (countries with their
 * currency, carriers and cities), acquisition sources and campaigns, OS versions and device
 * models, app releases, screens and products. Weights are plausible shares, not measurements.
 */
import { ORGANIC_SOURCE } from '@gd/shared';
import { WeightedList } from './random.ts';

export type AppOs = 'iOS' | 'Android';

export interface Country { code: string; currency: 'EUR' | 'USD' | 'GBP'; carriers: readonly string[]; cities: readonly string[] }

const country = (code: string, currency: Country['currency'], carriers: string[], cities: string[], weight: number) =>
  ({ value: { code, currency, carriers, cities }, weight });

export const COUNTRIES = new WeightedList<Country>([
  country('ES', 'EUR', ['Movistar', 'Vodafone ES', 'Orange ES', 'Digi'], ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao'], 30),
  country('MX', 'USD', ['Telcel', 'AT&T MX', 'Movistar MX'], ['Ciudad de México', 'Guadalajara', 'Monterrey'], 12),
  country('US', 'USD', ['Verizon', 'T-Mobile', 'AT&T'], ['New York', 'Los Angeles', 'Miami', 'Chicago'], 12),
  country('FR', 'EUR', ['Orange', 'SFR', 'Bouygues', 'Free'], ['Paris', 'Lyon', 'Marseille'], 7),
  country('DE', 'EUR', ['Telekom', 'Vodafone DE', 'O2'], ['Berlin', 'München', 'Hamburg'], 7),
  country('GB', 'GBP', ['EE', 'Vodafone UK', 'O2 UK', 'Three'], ['London', 'Manchester', 'Leeds'], 6),
  country('IT', 'EUR', ['TIM', 'Vodafone IT', 'WindTre'], ['Roma', 'Milano', 'Napoli'], 5),
  country('PT', 'EUR', ['MEO', 'NOS', 'Vodafone PT'], ['Lisboa', 'Porto'], 4),
  country('CO', 'USD', ['Claro', 'Movistar CO', 'Tigo'], ['Bogotá', 'Medellín'], 4),
  country('AR', 'USD', ['Personal', 'Claro AR', 'Movistar AR'], ['Buenos Aires', 'Córdoba'], 4),
  country('CL', 'USD', ['Entel', 'Movistar CL', 'WOM'], ['Santiago', 'Valparaíso'], 3),
  country('BR', 'USD', ['Vivo', 'Claro BR', 'TIM BR'], ['São Paulo', 'Rio de Janeiro'], 3),
  country('NL', 'EUR', ['KPN', 'Odido', 'Vodafone NL'], ['Amsterdam', 'Rotterdam'], 3),
]);

/** Price multiplier from the catalogue's EUR prices to each currency. */
export const CURRENCY_RATE: Record<Country['currency'], number> = { EUR: 1, USD: 1.1, GBP: 0.85 };

export interface Source { name: string; campaigns: readonly string[] }

const source = (name: string, campaigns: string[], weight: number) => ({ value: { name, campaigns }, weight });

/** Acquisition sources: the organic share and ad networks (named by kind, as SPEC.md names them). */
export const SOURCES = new WeightedList<Source>([
  source(ORGANIC_SOURCE, [], 42),
  source('Social Ads', ['spring_sale', 'lookalike_buyers', 'brand_awareness'], 20),
  source('Search Ads', ['brand_keywords', 'generic_shoes', 'competitors'], 13),
  source('Store Search Ads', ['brand_exact', 'category_discovery'], 8),
  source('Short Video Ads', ['creators_q4', 'unboxing_challenge'], 9),
  source('Referral', ['invite_a_friend'], 5),
  source('Newsletter', ['weekly_digest', 'black_friday_teaser'], 3),
]);

/** Sources of reinstalls: mostly retargeting campaigns. */
export const RETARGETING = new WeightedList<Source>([
  source(ORGANIC_SOURCE, [], 45),
  source('Social Ads', ['retarget_cart_abandoners', 'winback_30d'], 35),
  source('Search Ads', ['winback_brand'], 20),
]);

export const OS_VERSIONS: Record<AppOs, WeightedList<string>> = {
  iOS: new WeightedList([
    { value: '17.6.1', weight: 8 }, { value: '18.5', weight: 14 }, { value: '18.6.2', weight: 26 },
    { value: '26.0.1', weight: 30 }, { value: '26.1', weight: 22 },
  ]),
  Android: new WeightedList([
    { value: '12', weight: 9 }, { value: '13', weight: 16 }, { value: '14', weight: 28 },
    { value: '15', weight: 33 }, { value: '16', weight: 14 },
  ]),
};

export const MODELS: Record<AppOs, WeightedList<string>> = {
  iOS: new WeightedList([
    { value: 'iPhone SE', weight: 5 }, { value: 'iPhone 13', weight: 14 }, { value: 'iPhone 14', weight: 16 },
    { value: 'iPhone 15', weight: 20 }, { value: 'iPhone 15 Pro', weight: 12 }, { value: 'iPhone 16', weight: 18 },
    { value: 'iPhone 16 Pro Max', weight: 8 }, { value: 'iPhone 17', weight: 7 },
  ]),
  Android: new WeightedList([
    { value: 'Samsung Galaxy A54', weight: 18 }, { value: 'Samsung Galaxy S24', weight: 14 },
    { value: 'Xiaomi Redmi Note 13', weight: 18 }, { value: 'Google Pixel 8', weight: 9 },
    { value: 'Motorola moto g84', weight: 12 }, { value: 'OPPO A79', weight: 9 }, { value: 'OnePlus 12', weight: 6 },
    { value: 'Samsung Galaxy A15', weight: 14 },
  ]),
};

/** App releases, by days before the window's last day. People update some days after a release. */
export const RELEASES: readonly { version: string; daysBeforeEnd: number }[] = [
  { version: '3.4.2', daysBeforeEnd: 120 },
  { version: '3.5.0', daysBeforeEnd: 34 },
  { version: '3.5.1', daysBeforeEnd: 17 },
  { version: '3.6.0', daysBeforeEnd: 6 },
];
export const SDK_VERSION = '2.0';

export interface Category { name: string; minPrice: number; maxPrice: number }

export const CATEGORIES = new WeightedList<Category>([
  { value: { name: 'shoes', minPrice: 39, maxPrice: 180 }, weight: 22 },
  { value: { name: 'clothing', minPrice: 12, maxPrice: 120 }, weight: 26 },
  { value: { name: 'electronics', minPrice: 19, maxPrice: 900 }, weight: 12 },
  { value: { name: 'home', minPrice: 8, maxPrice: 250 }, weight: 12 },
  { value: { name: 'beauty', minPrice: 6, maxPrice: 90 }, weight: 14 },
  { value: { name: 'sports', minPrice: 10, maxPrice: 300 }, weight: 9 },
  { value: { name: 'books', minPrice: 7, maxPrice: 40 }, weight: 5 },
]);

/** Search terms people type. */
export const SEARCHES = ['sneakers', 'running', 'dress', 'headphones', 'lamp', 'jacket', 'gift', 'sale', 'backpack', 'perfume'] as const;

/** Relative session starts per local hour (0–23): evening peak, quiet nights. */
export const HOURS = new WeightedList(
  [2, 1, 0.6, 0.4, 0.4, 0.6, 1.5, 3, 4, 4.5, 4.5, 5, 5.5, 6, 5.5, 5, 5, 5.5, 6.5, 7.5, 8.5, 8.5, 6.5, 4].map((weight, hour) => ({ value: hour, weight })),
);

/** First and last names by the language of a country, for the e-mails and profiles of signed-in people. */
const NAMES = {
  es: { first: ['María', 'Lucía', 'Carmen', 'Sofía', 'Paula', 'Javier', 'Daniel', 'Alejandro', 'Pablo', 'Diego', 'Valentina', 'Mateo'], last: ['García', 'Martínez', 'López', 'Sánchez', 'Pérez', 'Gómez', 'Fernández', 'Rodríguez', 'Díaz', 'Moreno'] },
  en: { first: ['Emma', 'Olivia', 'Ava', 'Mia', 'James', 'Liam', 'Noah', 'Oliver', 'Amelia', 'Jack'], last: ['Smith', 'Johnson', 'Brown', 'Taylor', 'Wilson', 'Davies', 'Miller', 'Evans', 'Walker', 'Clark'] },
  fr: { first: ['Camille', 'Léa', 'Chloé', 'Manon', 'Louis', 'Hugo', 'Lucas', 'Jules'], last: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand'] },
  de: { first: ['Emilia', 'Hannah', 'Lena', 'Mia', 'Ben', 'Paul', 'Leon', 'Finn'], last: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker'] },
  it: { first: ['Giulia', 'Sofia', 'Aurora', 'Alice', 'Leonardo', 'Francesco', 'Lorenzo', 'Tommaso'], last: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci'] },
  pt: { first: ['Ana', 'Beatriz', 'Mariana', 'Inês', 'João', 'Pedro', 'Gabriel', 'Rafael'], last: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Almeida'] },
  nl: { first: ['Emma', 'Julia', 'Sophie', 'Tess', 'Daan', 'Sem', 'Lucas', 'Levi'], last: ['de Jong', 'Jansen', 'de Vries', 'van Dijk', 'Bakker', 'Visser', 'Smit', 'Meijer'] },
} as const;
const LANGUAGE: Record<string, keyof typeof NAMES> = { ES: 'es', MX: 'es', CO: 'es', AR: 'es', CL: 'es', US: 'en', GB: 'en', FR: 'fr', DE: 'de', IT: 'it', PT: 'pt', BR: 'pt', NL: 'nl' };

export function namesOf(countryCode: string): { first: readonly string[]; last: readonly string[] } {
  return NAMES[LANGUAGE[countryCode] ?? 'en'];
}
