// Settings of the migrate CLI; the only place in @pmx/db that reads process.env.
import { connectionSettings } from '@pmx/config';

export const migrateCliConfig = {
  pgUrl: connectionSettings(process.env).pgUrl,
};
