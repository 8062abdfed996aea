import {
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Database } from './database';
import { migrate } from './migrator';

/** Connects to the configured database and migrates it when asked to. */
@Global()
@Module({
  providers: [
    {
      provide: Database,
      inject: [AppConfig],
      useFactory: async (config: AppConfig) => {
        const logger = new Logger('Database');
        const database = await Database.connect(config);
        logger.log(`Using ${database.description}`);
        if (config.migrateOnStart) {
          const applied = await database.withSession((s) => migrate(s));
          logger.log(
            applied.length
              ? `Applied migrations: ${applied.join(', ')}`
              : 'Migrations are up to date',
          );
        }
        return database;
      },
    },
  ],
  exports: [Database],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
    new Logger('Database').log('Database closed');
  }
}
