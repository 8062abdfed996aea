import {
  Body,
  Controller,
  Headers,
  HttpCode,
  Param,
  Query,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { actorOf } from '../admin/admin-rules';
import { adminRoutes } from '../admin/admin-routes';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import {
  ApiConditionalGet,
  ApiIfMatch,
  ApiPaging,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { answerPage } from '../common/http/collection';
import { conditionalJson, createdJson } from '../common/http/conditional';
import { type Exchange, Http } from '../common/http/exchange';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { PageQuery } from '../common/pagination';
import { JsonBodyPipe } from '../common/validation/json-body.pipe';
import {
  CreatedWebhookResponse,
  ReplayRequest,
  RotatedSecretResponse,
  RotateSecretRequest,
  WEBHOOK_ID,
  WebhookAttemptResponse,
  WebhookPatch,
  WebhookRequest,
  WebhookResponse,
  WebhookStatusResponse,
} from './webhooks.dto';
import {
  ATTEMPTS_ORDER,
  WebhooksService,
  WEBHOOKS_ORDER,
} from './webhooks.service';

const Webhook = adminRoutes({
  path: '',
  id: {
    name: 'webhookId',
    description: 'the webhook’s id',
    schema: { type: 'string', pattern: WEBHOOK_ID.source, maxLength: 29 },
  },
  called: 'the webhook',
  type: WebhookResponse,
});

const SETTINGS = ['url', 'eventTypes', 'description', 'enabled'] as const;

/** The tenant's webhook subscriptions (docs/api.md, webhooks). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/webhooks`)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Webhook.list({
    summary: 'The tenant’s webhooks, a page at a time',
    description: 'By creation. Never a secret.',
  })
  async getWebhooks(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, WEBHOOKS_ORDER, (page) =>
      this.webhooks.listWebhooks(caller.tenantId, page),
    );
  }

  @Webhook.create(
    {
      summary: 'Subscribe an endpoint to the change log',
      description:
        'It receives the events committed from now on, signed by the Standard Webhooks rules with the secret in this answer (shown once). At most 20 per tenant. Recorded in the audit log, without the secret.',
    },
    WebhookRequest,
    { type: CreatedWebhookResponse },
  )
  async createWebhook(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(WebhookRequest, [...SETTINGS]))
    body: Readonly<WebhookRequest>,
    @Http() http: Exchange,
  ): Promise<string> {
    const { secret, ...webhook } = await this.webhooks.createWebhook(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    // Status, Location and the ETag of the settings as GET shows them; the
    // answer adds the secret, this once.
    createdJson(http, webhook.id, webhook);
    http.res.setHeader('Cache-Control', 'no-store');
    return JSON.stringify({ ...webhook, secret });
  }

  @Webhook.read({ summary: 'A webhook’s settings' })
  async getWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const webhook = await this.webhooks.webhook(caller.tenantId, id);
    return conditionalJson(http, JSON.stringify(webhook));
  }

  @Webhook.change(
    'PATCH',
    {
      summary: 'Change a webhook’s settings',
      description:
        'The keys sent are replaced (`description: null` removes it). `enabled: false` stops delivery where it is; `enabled: true` resumes it from there, also after the webhook was marked failing or disabled by a 410. Recorded in the audit log.',
    },
    WebhookPatch,
  )
  async updateWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Body(new JsonBodyPipe(WebhookPatch, [...SETTINGS]))
    body: Readonly<WebhookPatch>,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    const webhook = await this.webhooks.updateWebhook(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(http, JSON.stringify(webhook));
  }

  @Webhook.remove(
    {
      summary: 'Remove a webhook',
      description:
        'Its delivery log goes with it; an attempt under way ends. Recorded in the audit log.',
    },
    'removed',
  )
  async removeWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Headers('if-match') ifMatch: string | undefined,
  ): Promise<void> {
    await this.webhooks.removeWebhook(
      caller.tenantId,
      id,
      ifMatch,
      actorOf(caller.appId),
    );
  }

  @Webhook.action(
    'POST',
    'rotate-secret',
    {
      summary: 'Give a webhook a new signing secret',
      description:
        'The body is {} or names overlapSeconds. The new secret is in this answer only. For overlapSeconds (default a day, 0 for none) deliveries carry a signature with each secret, so a receiver can move to the new one without missing any. Recorded in the audit log, without either secret.',
    },
    [412, 413, 415],
    HttpCode(200),
    ApiIfMatch('the webhook'),
    ApiBody({ type: RotateSecretRequest }),
    ApiOkResponse({
      type: RotatedSecretResponse,
      headers: headers(...RATE_LIMIT),
    }),
  )
  async rotateWebhookSecret(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Body(new JsonBodyPipe(RotateSecretRequest, ['overlapSeconds']))
    body: Readonly<RotateSecretRequest>,
    @Headers('if-match') ifMatch: string | undefined,
    @Http() http: Exchange,
  ): Promise<RotatedSecretResponse> {
    http.res.setHeader('Cache-Control', 'no-store');
    return this.webhooks.rotateSecret(
      caller.tenantId,
      id,
      body.overlapSeconds,
      ifMatch,
      actorOf(caller.appId),
    );
  }

  @Webhook.action(
    'POST',
    'replay',
    {
      summary: 'Deliver events again',
      description:
        "From an event id (fromEventId) or from a time (since), whichever is given: the webhook's position moves back to just before it (never forward), and delivery goes on from there, with each event's own webhook-id. Answers the delivery status. Recorded in the audit log.",
    },
    [413, 415],
    HttpCode(202),
    ApiBody({ type: ReplayRequest }),
    ApiAcceptedResponse({
      type: WebhookStatusResponse,
      headers: headers(...RATE_LIMIT),
    }),
  )
  async replayWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Body(new JsonBodyPipe(ReplayRequest, ['fromEventId', 'since']))
    body: Readonly<ReplayRequest>,
  ): Promise<WebhookStatusResponse> {
    return this.webhooks.replay(
      caller.tenantId,
      id,
      body,
      actorOf(caller.appId),
    );
  }

  @Webhook.action(
    'GET',
    'status',
    {
      summary: 'A webhook’s delivery: backlog, lag, last delivery, last error',
      description: 'Live figures, read at each request.',
    },
    [],
    ApiOkResponse({
      type: WebhookStatusResponse,
      headers: headers(...RATE_LIMIT),
    }),
  )
  getWebhookStatus(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
  ): Promise<WebhookStatusResponse> {
    return this.webhooks.status(caller.tenantId, id);
  }

  @Webhook.action(
    'GET',
    'attempts',
    {
      summary: 'A webhook’s delivery log, newest first',
      description:
        "Each attempt: the event, when, how long, the receiver's HTTP status or what went wrong (never what the receiver said). Kept for WEBHOOK_LOG_DAYS.",
    },
    [],
    ApiPaging(),
    ApiConditionalGet(),
    ApiOkResponse({
      type: [WebhookAttemptResponse],
      headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
    }),
  )
  async getWebhookAttempts(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Query() query: PageQuery,
    @Http() http: Exchange,
  ): Promise<string | undefined> {
    return answerPage(http, query, ATTEMPTS_ORDER, (page) =>
      this.webhooks.attempts(caller.tenantId, id, page),
    );
  }
}
