// Public surface of the bots (`@pmx/bench/bots`): a run of the crowd against a running exchange,
// its options, and the writer of its report, for the command (main.ts) and the smoke test.
export { runBots, type BotsRun, type BotsDeps, type BotsOutcome } from './run.ts';
export { endOfRunChecks, type CheckResult } from './end-check.ts';
export { loadBotsOptions, loadConnections, type BotsOptions } from './config.ts';
export { writeBotsRun } from '../report/bots-page.ts';
export { BotTrader, spendOf, type PlannedOrder } from './bot-trader.ts';
export { RunMetrics } from './run-metrics.ts';
