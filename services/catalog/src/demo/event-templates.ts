// The kinds of event the demo catalog is made of — elections, games, championships, crypto and
// weather brackets, central-bank decisions, awards, launches, geopolitics — each drawing its
// title, markets, tags, series and time span from the vocabulary.

import type { SeededRandom } from './seeded-random.ts';
import {
  AWARDS,
  CITIES,
  COINS,
  COMPANIES,
  COUNTRIES,
  FIRST_NAMES,
  LAST_NAMES,
  LEAGUES,
  OFFICES,
  PRODUCTS,
  TITLES,
} from './vocabulary.ts';

export interface MarketDraft {
  question: string;
  /** Binary outcomes; default Yes/No. */
  outcomes?: [string, string];
  /** Short label the market slug is made from. */
  label: string;
}

export interface EventDraft {
  title: string;
  description: string;
  resolutionSource: string;
  /** Tag labels (see DEMO_TAGS). */
  tags: string[];
  /** Title of the series this event recurs in, if any. */
  series?: { title: string; recurrence: string };
  markets: MarketDraft[];
  /** Mutually exclusive markets (one winner): neg-risk on the order book. */
  negRisk: boolean;
  /** How long the event runs, in days. */
  spanDays: [number, number];
  /** Preferred minimum tick of its markets. */
  tickSize: string;
  /** Scales the markets' volume (popular kinds trade more). */
  popularity: number;
}

/** When the event ends, for titles that carry a date. */
export type DateLabel = (daysFromAnchor: number) => string;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function person(rng: SeededRandom): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function money(value: number): string {
  if (value >= 1000) return `$${Math.round(value).toLocaleString('en-US')}`;
  if (value >= 1) return `$${Number(value.toFixed(2))}`;
  return `$${Number(value.toFixed(4))}`;
}

type Template = (rng: SeededRandom, when: { date: string; month: string; year: number }) => EventDraft;

const election: Template = (rng, when) => {
  const country = rng.pick(COUNTRIES);
  const office = rng.pick(OFFICES);
  const candidates = Array.from({ length: rng.int(3, 8) }, () => person(rng));
  return {
    title: `${country} ${office} Election ${when.year}`,
    description: `Who will win the ${when.year} ${office.toLowerCase()} election in ${country}? Resolves to the candidate officially declared the winner.`,
    resolutionSource: `Official results of the ${country} electoral authority`,
    tags: ['Politics', 'Elections', country],
    series: { title: `${country} ${office} Elections`, recurrence: 'annual' },
    markets: [...new Set(candidates)].map((name) => ({
      question: `Will ${name} win the ${when.year} ${country} ${office.toLowerCase()} election?`,
      label: name,
    })),
    negRisk: true,
    spanDays: [60, 400],
    tickSize: '0.001',
    popularity: 3,
  };
};

const game: Template = (rng, when) => {
  const league = rng.pick(LEAGUES);
  const [home, away] = rng.sample(league.teams, 2) as [string, string];
  const line = league.points + rng.int(-3, 3) + 0.5;
  const markets: MarketDraft[] = [{ question: `${home} vs. ${away}`, outcomes: [home, away], label: 'winner' }];
  if (rng.chance(0.6))
    markets.push({ question: `${home} vs. ${away}: O/U ${line}`, outcomes: ['Over', 'Under'], label: `total-${line}` });
  if (rng.chance(0.4))
    markets.push({
      question: `Will ${home} win by more than ${Math.max(1, Math.round(league.points / 20))}.5?`,
      label: 'spread',
    });
  return {
    title: `${home} vs. ${away} (${when.date})`,
    description: `${league.name} game between the ${home} and the ${away} scheduled for ${when.date}. Markets resolve on the official final result, overtime included.`,
    resolutionSource: `Official ${league.name} statistics`,
    tags: ['Sports', league.sport, league.name],
    series: { title: `${league.name} Games`, recurrence: 'daily' },
    markets,
    negRisk: false,
    spanDays: [1, 10],
    tickSize: '0.01',
    popularity: 2,
  };
};

const championship: Template = (rng, when) => {
  const league = rng.pick(LEAGUES);
  const teams = rng.sample(league.teams, rng.int(6, 10));
  return {
    title: `${league.name} Champion ${when.year}`,
    description: `Which team will win the ${when.year} ${league.name} title? Resolves to the official champion.`,
    resolutionSource: `Official ${league.name} announcements`,
    tags: ['Sports', league.sport, league.name],
    series: { title: `${league.name} Champion`, recurrence: 'annual' },
    markets: teams.map((team) => ({
      question: `Will ${team} win the ${when.year} ${league.name} championship?`,
      label: team,
    })),
    negRisk: true,
    spanDays: [90, 300],
    tickSize: '0.001',
    popularity: 4,
  };
};

const cryptoPrice: Template = (rng, when) => {
  const coin = rng.pick(COINS);
  const weekly = rng.chance(0.35);
  const center = coin.price * (0.8 + rng.next() * 0.4);
  const steps = rng.int(4, 7);
  const markets = Array.from({ length: steps }, (_, i) => {
    const level = center * (1 + (i - (steps - 1) / 2) * 0.05);
    return { question: `Will ${coin.name} be above ${money(level)} on ${when.date}?`, label: `above-${money(level)}` };
  });
  return {
    title: `${coin.name} price on ${when.date}`,
    description: `Where will ${coin.name} (${coin.ticker}) trade at 12:00 ET on ${when.date}? Each market resolves Yes if the ${coin.ticker}/USDT 1-minute close is above its level.`,
    resolutionSource: `Binance ${coin.ticker}/USDT`,
    tags: ['Crypto', coin.name, 'Crypto Prices'],
    series: { title: `${coin.name} ${weekly ? 'Weekly' : 'Daily'} Price`, recurrence: weekly ? 'weekly' : 'daily' },
    markets,
    negRisk: false,
    spanDays: weekly ? [5, 8] : [1, 2],
    tickSize: '0.01',
    popularity: 2,
  };
};

const fedDecision: Template = (_rng, when) => ({
  title: `Fed decision in ${when.month} ${when.year}`,
  description: `What will the FOMC decide at its ${when.month} ${when.year} meeting? Resolves on the target range published in the statement.`,
  resolutionSource: 'Federal Reserve press release',
  tags: ['Economy', 'Fed', 'United States'],
  series: { title: 'Fed Decisions', recurrence: 'monthly' },
  markets: [
    { question: `Fed cuts rates by 50+ bps in ${when.month}?`, label: 'cut-50' },
    { question: `Fed cuts rates by 25 bps in ${when.month}?`, label: 'cut-25' },
    { question: `No change in Fed rates in ${when.month}?`, label: 'no-change' },
    { question: `Fed hikes rates in ${when.month}?`, label: 'hike' },
  ],
  negRisk: true,
  spanDays: [20, 60],
  tickSize: '0.001',
  popularity: 5,
});

const inflation: Template = (rng, when) => {
  const country = rng.pick(COUNTRIES);
  const base = 1.5 + rng.next() * 3;
  const markets = Array.from({ length: rng.int(4, 6) }, (_, i) => {
    const level = (base + i * 0.1).toFixed(1);
    return { question: `${country} annual inflation ${level}% or higher in ${when.month}?`, label: `cpi-${level}` };
  });
  return {
    title: `${country} inflation for ${when.month} ${when.year}`,
    description: `The year-over-year consumer price index for ${country} for ${when.month} ${when.year}, as first published.`,
    resolutionSource: `${country} national statistics office`,
    tags: ['Economy', 'Inflation', country],
    series: { title: `${country} CPI`, recurrence: 'monthly' },
    markets,
    negRisk: false,
    spanDays: [20, 45],
    tickSize: '0.01',
    popularity: 1,
  };
};

const weather: Template = (rng, when) => {
  const city = rng.pick(CITIES);
  const base = rng.int(40, 85);
  const markets = Array.from({ length: rng.int(4, 6) }, (_, i) => {
    const low = base + i * 2;
    return {
      question: `Will the highest temperature in ${city} be ${low}°F or higher on ${when.date}?`,
      label: `${low}f`,
    };
  });
  return {
    title: `Highest temperature in ${city} on ${when.date}?`,
    description: `The highest temperature recorded at the main weather station of ${city} on ${when.date}, in degrees Fahrenheit.`,
    resolutionSource: 'Weather Underground history',
    tags: ['Weather', 'Climate', city],
    series: { title: `${city} Daily Weather`, recurrence: 'daily' },
    markets,
    negRisk: false,
    spanDays: [1, 3],
    tickSize: '0.01',
    popularity: 0.5,
  };
};

const award: Template = (rng, when) => {
  const show = rng.pick(AWARDS);
  const category = rng.pick(show.categories);
  const nominees =
    show.name === 'Ballon d’Or' ||
    category.includes('Act') ||
    category.includes('Director') ||
    category.includes('Artist')
      ? Array.from({ length: rng.int(4, 6) }, () => person(rng))
      : rng.sample(TITLES, rng.int(4, 6));
  return {
    title: `${show.name} ${when.year}: ${category}`,
    description: `Who will win ${category} at the ${when.year} ${show.name}? Resolves to the winner announced at the ceremony.`,
    resolutionSource: `Official ${show.name} announcement`,
    tags: ['Culture', 'Awards', show.tag],
    series: { title: `${show.name}`, recurrence: 'annual' },
    markets: [...new Set(nominees)].map((name) => ({
      question: `Will ${name} win ${category} at the ${when.year} ${show.name}?`,
      label: name,
    })),
    negRisk: true,
    spanDays: [60, 150],
    tickSize: '0.01',
    popularity: 1.5,
  };
};

const launch: Template = (rng, when) => {
  const company = rng.pick(COMPANIES);
  const product = rng.pick(PRODUCTS);
  return {
    title: `Will ${company} release ${product} by ${when.month} ${when.year}?`,
    description: `Resolves Yes if ${company} makes ${product} generally available before the end of ${when.month} ${when.year}. Announcements alone do not count.`,
    resolutionSource: `${company} official channels`,
    tags: ['Tech', 'Business', company === 'OpenAI' || company === 'Anthropic' ? 'AI' : 'Companies'],
    series: { title: `${company} Launches`, recurrence: 'monthly' },
    markets: [{ question: `Will ${company} release ${product} by ${when.month} ${when.year}?`, label: 'yes' }],
    negRisk: false,
    spanDays: [30, 300],
    tickSize: '0.01',
    popularity: 1,
  };
};

const geopolitics: Template = (rng, when) => {
  const [a, b] = rng.sample(COUNTRIES, 2) as [string, string];
  const markets: MarketDraft[] = [
    { question: `${a}–${b} trade agreement signed by ${when.month} ${when.year}?`, label: 'agreement' },
  ];
  if (rng.chance(0.5))
    markets.push({ question: `${a} and ${b} leaders meet before ${when.month} ${when.year}?`, label: 'meeting' });
  return {
    title: `${a}–${b} relations by ${when.month} ${when.year}`,
    description: `Questions on relations between ${a} and ${b} before the end of ${when.month} ${when.year}, resolved on official government statements.`,
    resolutionSource: 'Official government statements',
    tags: ['World', 'Geopolitics', a],
    markets,
    negRisk: false,
    spanDays: [30, 365],
    tickSize: '0.01',
    popularity: 1.5,
  };
};

/** Templates with their weights (how often each kind of event is drawn). */
export const EVENT_TEMPLATES: [Template, number][] = [
  [election, 9],
  [game, 34],
  [championship, 5],
  [cryptoPrice, 18],
  [fedDecision, 2],
  [inflation, 5],
  [weather, 14],
  [award, 5],
  [launch, 5],
  [geopolitics, 3],
];

export function pickTemplate(rng: SeededRandom): Template {
  const total = EVENT_TEMPLATES.reduce((sum, [, w]) => sum + w, 0);
  let draw = rng.next() * total;
  for (const [template, weight] of EVENT_TEMPLATES) {
    draw -= weight;
    if (draw < 0) return template;
  }
  return EVENT_TEMPLATES[0]![0];
}

export function dateWords(date: Date): { date: string; month: string; year: number } {
  return {
    date: `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`,
    month: MONTHS[date.getUTCMonth()]!,
    year: date.getUTCFullYear(),
  };
}

/** Every tag label the templates use, plus a few cross-cutting ones: 100 in all. */
export const DEMO_TAGS: string[] = [
  ...new Set([
    'Politics',
    'Elections',
    'World',
    'Geopolitics',
    'Sports',
    'Crypto',
    'Crypto Prices',
    'Economy',
    'Fed',
    'Inflation',
    'Weather',
    'Climate',
    'Culture',
    'Awards',
    'Movies',
    'Music',
    'TV',
    'Gaming',
    'Tech',
    'AI',
    'Business',
    'Companies',
    'Trending',
    'Breaking',
    'Recurring',
    'Daily',
    'Weekly',
    'Mentions',
    'Polls',
    'Science',
    'Space',
    ...LEAGUES.map((l) => l.sport),
    ...LEAGUES.map((l) => l.name),
    ...COINS.map((c) => c.name),
    ...COUNTRIES,
    ...CITIES,
  ]),
].slice(0, 100);
