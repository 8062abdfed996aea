import { Module } from '@nestjs/common';
import { IdentityModule } from '../identity/identity.module';
import { OpenApiSections } from '../ops/openapi-sections';
import { OpsModule } from '../ops/ops.module';
import { addWebhooks } from './webhooks.api-docs';
import { WebhookDelivery } from './webhook-delivery';
import { WebhookMetrics } from './webhook-metrics';
import { WebhooksModule } from './webhooks.module';

/** The delivery of webhooks by this instance, with its metrics and the OpenAPI document's webhooks section (docs/operations.md). */
@Module({
  imports: [WebhooksModule, IdentityModule, OpsModule],
  providers: [WebhookDelivery, WebhookMetrics],
})
export class WebhookDeliveryModule {
  constructor(sections: OpenApiSections) {
    // The document's `webhooks` section: what deliveries look like.
    sections.add(addWebhooks);
  }
}
