import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { OpsModule } from '../ops/ops.module';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookMetrics } from './webhook-metrics';
import { WebhooksModule } from './webhooks.module';

/** The delivery of webhooks by this instance, with its metrics (docs/operations.md). */
@Module({
  imports: [WebhooksModule, IdentityModule, OpsModule],
  providers: [WebhookDelivery, WebhookMetrics],
})
export class WebhookDeliveryModule {}
