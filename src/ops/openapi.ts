import { INestApplication } from '@nestjs/common';
import { RouteTable } from '../common/http/route-table';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { JWT_ALGORITHMS } from '../common/validation/field-rules';
import { OpenApiSections } from './openapi-sections';
import { addProtocol, PROTOCOL_TAG } from './openapi-protocol';

const DESCRIPTION = `Who the signed-in user is, which login accounts they have linked (grouped
by provider), who their friends are and which roles they hold; and, when
allowed, the same about another identity of the tenant.

Send the token as \`Authorization: Bearer <token>\` or as \`?access_token=\`,
never both. Every error is \`application/problem+json\` (RFC 9457) whose
\`type\` is \`urn:problem:identity:<slug>\`. Every answer carries
\`X-Request-Id\` and \`Cache-Control\`; every answer that reaches the routes
carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`.
Every GET answers a strong \`ETag\` and 304 to an \`If-None-Match\` naming it.`;

const TAGS: Record<string, string> = {
  identity: 'the identity of the caller, or another one of the tenant',
  accounts: 'linked login accounts, one entry per account provider',
  friends: 'friends, whole or a page at a time',
  roles: 'roles, whole or a page at a time',
  scim: 'the SCIM 2.0 service provider (RFC 7644): provisioning of users',
  admin:
    'the tenant administration API: its settings, account providers, token issuers, tokens and audit log, and its identities to read (app tokens with tenant:admin)',
  link: 'where browsers go to link an account: a link URL, and the callback a provider sends them back to (no token: the link URL’s ticket says who links)',
  [PROTOCOL_TAG]: 'OPTIONS: the methods each path allows',
};

const BEARER_DESCRIPTION = `An access token (a user's) or an app token, either
opaque (registered with the service: issued by its command line as \`idt_…\`,
or imported) or a JWT (RFC 9068) of one of the tenant's own authorization
servers, checked as RFC8725 advises: only ${JWT_ALGORITHMS.join(', ')}
signatures by a key of the issuer's JWKS (never \`none\` or HMAC), with
\`iss\`, \`aud\` and \`exp\` required.`;

/** The OpenAPI 3.1 document of the identity API, generated from the code. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Identity API')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addServer(
      '/',
      'this service, where it serves this document (local, staging or production alike)',
      undefined,
      { 'x-internal': false },
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque or JWT',
        description: BEARER_DESCRIPTION,
      },
      'bearer',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque or JWT',
        description:
          'An app token of the tenant with the tenant:admin scope (registered, or a JWT of its authorization server); no other token may use the administration API.',
      },
      'admin_bearer',
    )
    .addSecurityRequirements('bearer')
    .addSecurity('admin_access_token', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description:
        'the same tenant:admin app token in the URL, as access_token is on every path: never together with the Authorization header (400)',
    })
    .addSecurity('access_token', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description:
        "the same token in the URL (RFC 6750 §2.3), never together with the Authorization header (400); its characters are RFC 6750's b64token, and with the rest of the request line and the headers it must fit in 16 KiB (431 otherwise; percent-encoding counts). Answers then carry Cache-Control: no-store",
    });
  for (const [name, description] of Object.entries(TAGS))
    builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller: string, method: string) => method,
  });
  const sections = app.get(OpenApiSections, { strict: false });
  return sections.apply(addProtocol(document));
}

/** Serves the document at /openapi.json and Swagger UI at /docs; both public. */
export function setupOpenApi(app: INestApplication): void {
  const routes = app.get(RouteTable);
  for (const path of ['docs', 'openapi.json', 'openapi.yaml'])
    routes.add('GET', path);
  // Built on the first request for it, not at start (about 100 ms of CPU
  // that a starting instance, or a test's app, need not spend).
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
