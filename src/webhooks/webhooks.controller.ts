import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { actorOf, WHO } from '../admin/admin-rules';
import { Access } from '../common/http/access.decorator';
import { Caller } from '../identity/caller.decorator';
import type { AppCaller } from '../identity/principal';
import {
  ApiAdminRoute,
  ApiConditionalGet,
  ApiIfMatch,
  ApiPaging,
} from '../common/http/api-docs';
import { headers, RATE_LIMIT } from '../common/http/api-headers';
import { answerCollection } from '../common/http/collection';
import { conditionalJson, createdJson } from '../common/http/conditional';
import { ADMIN_PREFIX } from '../common/http/route-table';
import { pageOf, PageQuery } from '../common/pagination';
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

const WEBHOOK = () =>
  ApiParam({
    name: 'webhookId',
    description: 'the webhook’s id',
    schema: { type: 'string', pattern: WEBHOOK_ID.source, maxLength: 29 },
  });

const SETTINGS = ['url', 'eventTypes', 'description', 'enabled'] as const;

/** The tenant's webhook subscriptions (docs/api.md, webhooks). */
@ApiTags('admin')
@Controller(`${ADMIN_PREFIX}/webhooks`)
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Access('admin')
  @ApiOperation({
    summary: 'The tenant’s webhooks, a page at a time',
    description: `By creation. Never a secret. ${WHO}`,
  })
  @ApiAdminRoute()
  @ApiConditionalGet()
  @ApiPaging()
  @ApiOkResponse({
    type: [WebhookResponse],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getWebhooks(
    @Caller() caller: AppCaller,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.webhooks.listWebhooks(
        caller.tenantId,
        pageOf(query, WEBHOOKS_ORDER),
      ),
    );
  }

  @Post()
  @Access('admin')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Subscribe an endpoint to the change log',
    description: `It receives the events committed from now on, signed by the Standard Webhooks rules with the secret in this answer (shown once). At most 20 per tenant. Recorded in the audit log, without the secret. ${WHO}`,
  })
  @ApiAdminRoute(413, 415)
  @ApiBody({ type: WebhookRequest })
  @ApiCreatedResponse({
    type: CreatedWebhookResponse,
    headers: headers(...RATE_LIMIT, 'ETag', 'Location'),
  })
  async createWebhook(
    @Caller() caller: AppCaller,
    @Body(new JsonBodyPipe(WebhookRequest, [...SETTINGS]))
    body: Readonly<WebhookRequest>,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const { secret, ...webhook } = await this.webhooks.createWebhook(
      caller.tenantId,
      body,
      actorOf(caller.appId),
    );
    // Status, Location and the ETag of the settings as GET shows them; the
    // answer adds the secret, this once.
    createdJson(res, `${req.path}/${webhook.id}`, webhook);
    res.setHeader('Cache-Control', 'no-store');
    return JSON.stringify({ ...webhook, secret });
  }

  @Get(':webhookId')
  @Access('admin')
  @ApiOperation({ summary: 'A webhook’s settings', description: WHO })
  @ApiAdminRoute(404)
  @WEBHOOK()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: WebhookResponse,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async getWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const webhook = await this.webhooks.webhook(caller.tenantId, id);
    return conditionalJson(req, res, JSON.stringify(webhook));
  }

  @Patch(':webhookId')
  @Access('admin')
  @ApiOperation({
    summary: 'Change a webhook’s settings',
    description: `The keys sent are replaced (\`description: null\` removes it). \`enabled: false\` stops delivery where it is; \`enabled: true\` resumes it from there, also after the webhook was marked failing or disabled by a 410. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 412, 413, 415)
  @WEBHOOK()
  @ApiIfMatch('the webhook')
  @ApiBody({ type: WebhookPatch })
  @ApiOkResponse({
    type: WebhookResponse,
    headers: headers(...RATE_LIMIT, 'ETag'),
  })
  async updateWebhook(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Body(new JsonBodyPipe(WebhookPatch, [...SETTINGS]))
    body: Readonly<WebhookPatch>,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    const webhook = await this.webhooks.updateWebhook(
      caller.tenantId,
      id,
      body,
      ifMatch,
      actorOf(caller.appId),
    );
    return conditionalJson(req, res, JSON.stringify(webhook));
  }

  @Delete(':webhookId')
  @Access('admin')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Remove a webhook',
    description: `Its delivery log goes with it; an attempt under way ends. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 412)
  @WEBHOOK()
  @ApiIfMatch('the webhook')
  @ApiNoContentResponse({
    description: 'removed',
    headers: headers(...RATE_LIMIT),
  })
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

  @Post(':webhookId/rotate-secret')
  @Access('admin')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Give a webhook a new signing secret',
    description: `The body is {} or names overlapSeconds. The new secret is in this answer only. For overlapSeconds (default a day, 0 for none) deliveries carry a signature with each secret, so a receiver can move to the new one without missing any. Recorded in the audit log, without either secret. ${WHO}`,
  })
  @ApiAdminRoute(404, 412, 413, 415)
  @WEBHOOK()
  @ApiIfMatch('the webhook')
  @ApiBody({ type: RotateSecretRequest })
  @ApiOkResponse({
    type: RotatedSecretResponse,
    headers: headers(...RATE_LIMIT),
  })
  async rotateWebhookSecret(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Body(new JsonBodyPipe(RotateSecretRequest, ['overlapSeconds']))
    body: Readonly<RotateSecretRequest>,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RotatedSecretResponse> {
    res.setHeader('Cache-Control', 'no-store');
    return this.webhooks.rotateSecret(
      caller.tenantId,
      id,
      body.overlapSeconds,
      ifMatch,
      actorOf(caller.appId),
    );
  }

  @Post(':webhookId/replay')
  @Access('admin')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Deliver events again',
    description: `From an event id (fromEventId) or from a time (since), whichever is given: the webhook's position moves back to just before it (never forward), and delivery goes on from there, with each event's own webhook-id. Answers the delivery status. Recorded in the audit log. ${WHO}`,
  })
  @ApiAdminRoute(404, 413, 415)
  @WEBHOOK()
  @ApiBody({ type: ReplayRequest })
  @ApiAcceptedResponse({
    type: WebhookStatusResponse,
    headers: headers(...RATE_LIMIT),
  })
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

  @Get(':webhookId/status')
  @Access('admin')
  @ApiOperation({
    summary: 'A webhook’s delivery: backlog, lag, last delivery, last error',
    description: `Live figures, read at each request. ${WHO}`,
  })
  @ApiAdminRoute(404)
  @WEBHOOK()
  @ApiOkResponse({
    type: WebhookStatusResponse,
    headers: headers(...RATE_LIMIT),
  })
  getWebhookStatus(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
  ): Promise<WebhookStatusResponse> {
    return this.webhooks.status(caller.tenantId, id);
  }

  @Get(':webhookId/attempts')
  @Access('admin')
  @ApiOperation({
    summary: 'A webhook’s delivery log, newest first',
    description: `Each attempt: the event, when, how long, the receiver's HTTP status or what went wrong (never what the receiver said). Kept for WEBHOOK_LOG_DAYS. ${WHO}`,
  })
  @ApiAdminRoute(404)
  @WEBHOOK()
  @ApiPaging()
  @ApiConditionalGet()
  @ApiOkResponse({
    type: [WebhookAttemptResponse],
    headers: headers(...RATE_LIMIT, 'ETag', 'Link'),
  })
  async getWebhookAttempts(
    @Caller() caller: AppCaller,
    @Param('webhookId') id: string,
    @Query() query: PageQuery,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string | undefined> {
    return answerCollection(
      req,
      res,
      await this.webhooks.attempts(
        caller.tenantId,
        id,
        pageOf(query, ATTEMPTS_ORDER),
      ),
    );
  }
}
