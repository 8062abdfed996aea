import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

const DESCRIPTION = `Who the signed-in user is, which login accounts they have linked (grouped
by provider), who their friends are and which roles they hold; and, when
allowed, the same about another identity of the tenant.

Send the token as \`Authorization: Bearer <token>\` or as \`?access_token=\`,
never both. Every error is \`application/problem+json\` (RFC 9457).`;

/** The OpenAPI 3.1 document of the identity API, generated from the code. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Identity API')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    .setOpenAPIVersion('3.1.0')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'an access token or an app token',
      },
      'bearer',
    )
    .addSecurityRequirements('bearer')
    .addSecurity('access_token', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description: 'the same token in the URL',
    })
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller: string, method: string) => method,
  });
}

/** Serves the document at /openapi.json and Swagger UI at /docs; both public. */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app), {
    jsonDocumentUrl: 'openapi.json',
    yamlDocumentUrl: 'openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
