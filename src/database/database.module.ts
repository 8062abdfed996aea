import {
  DynamicModule,
  Global,
  Inject,
  Logger,
  Module,
  OnApplicationShutdown,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Database, DatabaseRole } from './database';
import { migrate } from './migrator';

async function connect(config: AppConfig, role: DatabaseRole) {
  const logger = new Logger('Database');
  const database = await Database.connect(config, role);
  logger.log(`Using ${database.description}`);
  if (database.replicas)
    logger.log(
      `Reading GET requests from ${database.replicas.replicas.map((r) => r.name).join(', ')} while within ${database.replicas.maxLagMs} ms of the primary`,
    );
  if (config.migrateOnStart) {
    const applied = await database.withSession((s) => migrate(s), {
      direct: true,
    });
    logger.log(
      applied.length
        ? `Applied migrations: ${applied.join(', ')}`
        : 'Migrations are up to date',
    );
  }
  return database;
}

/** Connects to the configured database and migrates it when asked to. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  static forRoot(role: DatabaseRole): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: Database,
          inject: [AppConfig],
          useFactory: (config: AppConfig) => connect(config, role),
        },
      ],
      exports: [Database],
    };
  }

  constructor(@Inject(Database) private readonly database: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
    new Logger('Database').log('Database closed');
  }
}
