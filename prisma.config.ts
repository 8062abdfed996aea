import { defineConfig } from 'prisma/config';

// Used by the Prisma CLI only (generate; migrate deploy where its engine is
// available). The service reads its own configuration in src/config.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? '' },
});
