import { ValidationPipe } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { InvalidRequest } from './common/errors';
import { httpPolicy } from './common/http/http-policy';
import { ProblemFilter } from './common/http/problem.filter';
import { toFieldErrors } from './common/validation/field-errors';

/**
 * HTTP behaviour shared by the server and the end-to-end tests. The app must
 * be created with `bodyParser: false`: JSON is the only body this API takes.
 */
export function configureApp(
  app: NestExpressApplication,
): NestExpressApplication {
  app.disable('x-powered-by');
  // ETags are set deliberately on identity responses only.
  app.set('etag', false);
  app.use(httpPolicy(app.getHttpAdapter().getInstance()));
  app.useBodyParser('json', { limit: '64kb' });
  app.useGlobalFilters(new ProblemFilter());
  app.useGlobalPipes(
    new ValidationPipe({
      transform: true,
      whitelist: true,
      exceptionFactory: (errors) => {
        const fieldErrors = toFieldErrors(errors);
        return new InvalidRequest(
          fieldErrors.map((e) => `${e.field} ${e.message}`).join('; '),
          fieldErrors,
        );
      },
    }),
  );
  app.enableShutdownHooks();
  return app;
}
