// Entry of the `pmx` command (root: `pnpm pmx …`).
import { runCli } from './cli.ts';
import { loadClobConfig } from './config.ts';
import { reportStartFailures } from '@pmx/config';

reportStartFailures('pmx');

// Results go to standard output once the command has been carried out. If it cannot take them (a
// full disk; a reader that went away, `pmx markets | head -1`), the command's effect stands: that
// is said in one line, never as a failure to start: a `pmx fund` whose output cannot be written
// has credited the funds, and an operator told "cannot start" would run it again and credit them
// twice.
let unwritten: NodeJS.ErrnoException | undefined;
process.stdout.on('error', (error: NodeJS.ErrnoException) => (unwritten ??= error));
const config = loadClobConfig(process.env);
const code = await runCli(process.argv.slice(2), {
  url: config.url,
  operatorKey: config.operatorKey,
  print: (line) => void (unwritten === undefined && process.stdout.write(`${line}\n`)),
  printError: (line) => console.error(line),
});
// A failed write is reported on a later turn of the event loop.
await new Promise((resolve) => setImmediate(resolve));
if (unwritten !== undefined && unwritten.code !== 'EPIPE') {
  console.error(
    `pmx: the command was carried out${code === 0 ? '' : ` (exit ${code})`}, but its result could not be written to standard output: ${unwritten.message}`,
  );
  process.exitCode = code === 0 ? 1 : code;
} else {
  // EPIPE: whoever reads the output stopped reading; nothing is left to say to them.
  process.exitCode = code;
}
