// Finds where pmx and nodejs-order-book part on the engine bench's workload: both play it in
// lockstep, the touched market's books compared after every operation; prints the first
// operation after which they differ (the order, each engine's outcome, the books) and the first
// order whose fills differ. `--raw-peer` plays the peer without pmx's FAK/FOK refusal (peer.ts).
// Usage: pnpm --filter @pmx/bench engine:diverge [-- --orders 1000000 --markets 10 --raw-peer]
import { parseArgs } from 'node:util';
import { compareWithPeer } from './compare.ts';
import { mixedWorkload } from './workload.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: {
    orders: { type: 'string', default: '1000000' },
    markets: { type: 'string', default: '10' },
    'raw-peer': { type: 'boolean', default: false },
  },
});
const markets = Number(values.markets);
const workload = mixedWorkload(Number(values.orders), markets);
const result = compareWithPeer(workload, markets, { everyStep: true, refusalRule: !values['raw-peer'] });
console.log(
  result.firstBookDifference ??
    `the books are equal after every one of the ${workload.count.toLocaleString('en')} operations`,
);
console.log(`first order whose fills differ: ${result.firstFillDifference ?? 'none'}`);
console.log(
  `orders whose fills differ: ${result.disagreements}; lots filled: pmx ${result.pmxLots}, the peer ${result.peerLots}`,
);
console.log(
  `FAK/FOK refused on pmx's rule before the peer: ${result.refused}, ${result.refusedOverOwnOrders} of them over their owner's own resting orders`,
);
