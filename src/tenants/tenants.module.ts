import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DemoSeeder } from './demo-seeder';
import { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

/** Tenant import and export (the import format), and the demo data. */
@Module({
  imports: [AuthModule],
  providers: [TenantsService, TenantsRepository, DemoSeeder],
  exports: [TenantsService, DemoSeeder],
})
export class TenantsModule {}
