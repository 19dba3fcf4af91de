// Entry of the `pmx` command (root: `pnpm pmx …`).
import { runCli } from './cli.ts';
import { loadClobConfig } from './config.ts';
import { reportStartFailures } from '@pmx/config';

reportStartFailures('pmx');

const config = loadClobConfig(process.env);
process.exitCode = await runCli(process.argv.slice(2), { url: config.url, operatorKey: config.operatorKey, print: (line) => console.log(line), printError: (line) => console.error(line) });
