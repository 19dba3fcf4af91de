// Once before every vitest run: remove what earlier runs that were killed left behind (test
// databases, Redis prefixes, temp dirs and the processes run from them, whose process has ended;
// see @pmx/testkit).
import { sweepLeftovers } from '@pmx/testkit';

export default async function setup(): Promise<void> {
  const swept = await sweepLeftovers();
  const count = swept.databases.length + swept.redisPrefixes.length + swept.tempDirs.length + swept.processes.length;
  if (count > 0) {
    console.log(
      `test: removed what killed runs left: ${swept.databases.length} databases, ` +
        `${swept.redisPrefixes.length} Redis prefixes, ${swept.tempDirs.length} temp dirs, ` +
        `${swept.processes.length} processes`,
    );
  }
}
