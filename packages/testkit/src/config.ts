// The test harness's settings: the servers that infra/setup.sh provides, or overrides from env.
import { connectionSettings } from '@pmx/config';

const settings = connectionSettings(process.env);

export const testkitConfig = {
  /** Server (and maintenance database) on which test databases are created. */
  pgUrl: settings.pgUrl,
  redisUrl: settings.redisUrl,
} as const;
