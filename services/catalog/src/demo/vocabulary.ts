// Names the demo generator draws from: countries, leagues and teams, coins, cities, people,
// award categories, companies and comment phrasing. Invented people, real places and leagues.

export const COUNTRIES = [
  'United States', 'United Kingdom', 'France', 'Germany', 'Brazil', 'India', 'Japan', 'Canada', 'Mexico', 'Argentina',
  'Australia', 'South Korea', 'Italy', 'Spain', 'Netherlands', 'Poland', 'Turkey', 'Nigeria', 'South Africa', 'Chile',
  'Colombia', 'Sweden', 'Portugal', 'Ireland', 'New Zealand',
] as const;

export const OFFICES = ['Presidential', 'Parliamentary', 'General', 'Mayoral', 'Senate'] as const;

export const LEAGUES: { name: string; sport: string; teams: string[]; points: number }[] = [
  { name: 'NBA', sport: 'Basketball', points: 220, teams: ['Lakers', 'Celtics', 'Warriors', 'Bucks', 'Nuggets', 'Heat', 'Knicks', 'Suns', '76ers', 'Mavericks', 'Thunder', 'Timberwolves'] },
  { name: 'NFL', sport: 'Football', points: 45, teams: ['Chiefs', 'Eagles', '49ers', 'Bills', 'Ravens', 'Cowboys', 'Lions', 'Packers', 'Dolphins', 'Bengals', 'Jets', 'Steelers'] },
  { name: 'MLB', sport: 'Baseball', points: 8, teams: ['Yankees', 'Dodgers', 'Braves', 'Astros', 'Mets', 'Phillies', 'Orioles', 'Rangers', 'Cubs', 'Mariners'] },
  { name: 'NHL', sport: 'Hockey', points: 6, teams: ['Rangers', 'Bruins', 'Oilers', 'Panthers', 'Avalanche', 'Stars', 'Maple Leafs', 'Canucks', 'Jets', 'Lightning'] },
  { name: 'Premier League', sport: 'Soccer', points: 3, teams: ['Arsenal', 'Manchester City', 'Liverpool', 'Chelsea', 'Tottenham', 'Manchester United', 'Newcastle', 'Aston Villa', 'Brighton', 'West Ham'] },
  { name: 'La Liga', sport: 'Soccer', points: 3, teams: ['Real Madrid', 'Barcelona', 'Atlético Madrid', 'Sevilla', 'Real Sociedad', 'Villarreal', 'Athletic Bilbao', 'Valencia'] },
  { name: 'Champions League', sport: 'Soccer', points: 3, teams: ['Real Madrid', 'Bayern Munich', 'Manchester City', 'PSG', 'Inter', 'Barcelona', 'Arsenal', 'Borussia Dortmund'] },
  { name: 'Serie A', sport: 'Soccer', points: 3, teams: ['Inter', 'Milan', 'Juventus', 'Napoli', 'Roma', 'Lazio', 'Atalanta', 'Fiorentina'] },
  { name: 'Bundesliga', sport: 'Soccer', points: 3, teams: ['Bayern Munich', 'Borussia Dortmund', 'Leverkusen', 'RB Leipzig', 'Stuttgart', 'Frankfurt', 'Freiburg', 'Wolfsburg'] },
  { name: 'IPL', sport: 'Cricket', points: 340, teams: ['Mumbai Indians', 'Chennai Super Kings', 'Royal Challengers', 'Kolkata Knight Riders', 'Rajasthan Royals', 'Delhi Capitals', 'Gujarat Titans', 'Sunrisers'] },
];

export const COINS: { name: string; ticker: string; price: number }[] = [
  { name: 'Bitcoin', ticker: 'BTC', price: 95_000 },
  { name: 'Ethereum', ticker: 'ETH', price: 3_400 },
  { name: 'Solana', ticker: 'SOL', price: 190 },
  { name: 'XRP', ticker: 'XRP', price: 2.3 },
  { name: 'Dogecoin', ticker: 'DOGE', price: 0.32 },
  { name: 'Cardano', ticker: 'ADA', price: 0.95 },
  { name: 'Avalanche', ticker: 'AVAX', price: 38 },
  { name: 'Chainlink', ticker: 'LINK', price: 22 },
];

export const CITIES = [
  'New York', 'London', 'Tokyo', 'Paris', 'Chicago', 'Seoul', 'Toronto', 'Sydney', 'Berlin', 'Madrid',
  'São Paulo', 'Mumbai', 'Dallas', 'Miami', 'Zürich', 'Singapore', 'Los Angeles', 'Buenos Aires', 'Atlanta', 'Denver',
] as const;

export const FIRST_NAMES = [
  'Alex', 'Maria', 'Jordan', 'Sofia', 'Daniel', 'Amara', 'Lucas', 'Priya', 'Mateo', 'Hana', 'Oliver', 'Chloé', 'Noah',
  'Aisha', 'Leo', 'Ingrid', 'Ravi', 'Elena', 'Tomás', 'Yuki', 'Samuel', 'Zara', 'Felix', 'Nadia', 'Hugo', 'Mei',
  'Isaac', 'Lena', 'Omar', 'Clara', 'Victor', 'Freya',
] as const;

export const LAST_NAMES = [
  'Hartley', 'Moreau', 'Okafor', 'Lindqvist', 'Tanaka', 'Alvarez', 'Novak', 'Brennan', 'Castillo', 'Whitmore',
  'Kowalski', 'Achebe', 'Rossi', 'Fischer', 'Delacroix', 'Haddad', 'Sato', 'Mendes', 'Varga', 'Quinn', 'Osei',
  'Lambert', 'Petrov', 'Nakamura', 'Ferreira', 'Holloway', 'Bianchi', 'Sørensen',
] as const;

export const ADJECTIVES = [
  'Quiet', 'Brave', 'Lucky', 'Silver', 'Rapid', 'Calm', 'Bold', 'Clever', 'Golden', 'Swift', 'Sly', 'Patient', 'Curious',
  'Steady', 'Wild', 'Frosty', 'Sunny', 'Hidden',
] as const;

export const ANIMALS = [
  'Otter', 'Falcon', 'Badger', 'Lynx', 'Heron', 'Panda', 'Wolf', 'Marmot', 'Orca', 'Gecko', 'Bison', 'Raven', 'Koala',
  'Ibis', 'Yak', 'Fox', 'Moose', 'Tapir',
] as const;

export const AWARDS: { name: string; tag: string; categories: string[] }[] = [
  { name: 'Oscars', tag: 'Movies', categories: ['Best Picture', 'Best Director', 'Best Actress', 'Best Actor', 'Best Animated Feature'] },
  { name: 'Grammys', tag: 'Music', categories: ['Album of the Year', 'Record of the Year', 'Best New Artist', 'Song of the Year'] },
  { name: 'Emmys', tag: 'TV', categories: ['Outstanding Drama Series', 'Outstanding Comedy Series', 'Outstanding Limited Series'] },
  { name: 'Ballon d’Or', tag: 'Soccer', categories: ['Winner'] },
  { name: 'Game Awards', tag: 'Gaming', categories: ['Game of the Year', 'Best Indie Game'] },
];

export const TITLES = [
  'The Last Harbor', 'Northern Lights', 'Paper Moons', 'Glass City', 'The Long Field', 'Echo Park', 'Iron Orchard',
  'Salt and Stone', 'A Distant Shore', 'Midnight Transit', 'The Cartographer', 'Blue Meridian', 'Hollow Crown',
  'Summer of Wires', 'The Quiet Year',
] as const;

export const COMPANIES = ['Apple', 'Microsoft', 'Nvidia', 'Alphabet', 'Amazon', 'Meta', 'Tesla', 'OpenAI', 'Anthropic', 'SpaceX', 'Netflix', 'Samsung'] as const;

export const PRODUCTS = ['a new flagship phone', 'a foldable device', 'an AR headset', 'a new AI model', 'a robotaxi service', 'a humanoid robot', 'a new chip', 'a streaming bundle'] as const;

export const COMMENT_OPENERS = [
  'Honestly', 'Hot take:', 'I think', 'No way', 'Calling it now:', 'Fair point, but', 'Bought more —', 'Careful here,',
  'Interesting.', 'The market is sleeping on this:', 'Sold my position,', 'Look at the order book:',
] as const;

export const COMMENT_BODIES = [
  'this is mispriced by at least ten points.',
  'the odds look about right to me.',
  'resolution criteria are pretty clear on this one.',
  'volume is way up today, someone knows something.',
  'the last poll moved this a lot more than it should have.',
  'I would not touch this until the final week.',
  'easy yes at these prices.',
  'easy no, the base rate is tiny.',
  'liquidity is thin, watch your slippage.',
  'the news this morning changes everything.',
  'this will be decided in the last hour.',
  'history says the favourite usually wins these.',
] as const;

export const REPLY_BODIES = [
  'Agreed.', 'Source?', 'Not so sure about that.', 'This aged well.', 'Same, doubled down.', 'What makes you say that?',
  'Bold call.', 'The resolution source says otherwise.', 'We will see on the day.', 'Fair.',
] as const;
