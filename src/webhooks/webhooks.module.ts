import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Webhook subscriptions of the administration API
 * (`/{tenant}/api/admin/v1/webhooks`); its service serves the command line
 * too. Delivery is WebhookDeliveryModule's, in the service only.
 */
@Module({
  imports: [EventsModule],
  controllers: [WebhooksController],
  providers: [WebhooksService, WebhooksRepository],
  exports: [WebhooksService, WebhooksRepository],
})
export class WebhooksModule {}
