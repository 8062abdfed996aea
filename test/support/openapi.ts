import Ajv2020 from 'ajv/dist/2020';
import type { Response } from 'supertest';

/**
 * Checks a real response against the OpenAPI document the service serves:
 * the status must be documented for the operation, and the body must match
 * its schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
export function openApiValidator(document: any) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: false,
  });
  ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
  const refs = (schema: unknown): unknown =>
    JSON.parse(
      JSON.stringify(schema).replace(
        /"#\/components\//g,
        '"openapi#/components/',
      ),
    );

  return function expectConforms(res: Response, method: string, path: string) {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation)
      throw new Error(`${method} ${path} is not in the OpenAPI document`);
    const documented = operation.responses[String(res.status)];
    if (!documented)
      throw new Error(
        `${method} ${path} answered ${res.status}, which the document does not list`,
      );
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!documented.content) {
      if (res.text)
        throw new Error(
          `${method} ${path} ${res.status} has a body the document does not describe`,
        );
      return;
    }
    const media = documented.content[type];
    if (!media)
      throw new Error(
        `${method} ${path} ${res.status} answered ${type}, documented: ${Object.keys(documented.content).join(', ')}`,
      );
    const validate = ajv.compile(refs(media.schema) as object);
    if (!validate(res.body))
      throw new Error(
        `${method} ${path} ${res.status} does not match its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body)}`,
      );
  };
}
