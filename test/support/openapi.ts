import Ajv2020 from 'ajv/dist/2020';
import type { Response } from 'supertest';

const resolve = (document: any, node: any): any =>
  node?.$ref
    ? resolve(
        document,
        node.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, key: string) => at[key], document),
      )
    : node;

/**
 * Checks real responses against the OpenAPI document the service serves:
 * the status must be documented for the operation, the body must match its
 * schema (JSON Schema 2020-12, as OpenAPI 3.1 uses), every header the
 * document requires must be there and match its schema, and no header the
 * document knows of may appear where it is not documented.
 */
export function openApiValidator(document: any) {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: false,
  });
  ajv.addSchema({ $id: 'openapi', components: document.components }, 'openapi');
  const refs = (schema: unknown): object =>
    JSON.parse(
      JSON.stringify(schema).replace(
        /"#\/components\//g,
        '"openapi#/components/',
      ),
    );
  const known = new Set(
    [...Object.keys(document.components.headers), 'Allow'].map((name) =>
      name.toLowerCase(),
    ),
  );

  /** A validator for a schema of the document, e.g. `#/components/schemas/X`. */
  function schema(pointer: string) {
    const validate = ajv.compile(refs({ $ref: pointer }));
    return (value: unknown) => validate(value);
  }

  function expectHeaders(res: Response, what: string, documented: any) {
    const headers = documented.headers ?? {};
    for (const [name, node] of Object.entries(headers)) {
      const header = resolve(document, node);
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header.required)
          throw new Error(`${what} lacks the header ${name}`);
        continue;
      }
      const typed = header.schema.type === 'integer' ? Number(value) : value;
      const validate = ajv.compile(refs(header.schema));
      if (!validate(typed))
        throw new Error(
          `${what} header ${name}: ${value} does not match its schema: ${ajv.errorsText(validate.errors)}`,
        );
    }
    const listed = new Set(Object.keys(headers).map((n) => n.toLowerCase()));
    for (const name of Object.keys(res.headers))
      if (known.has(name) && !listed.has(name))
        throw new Error(`${what} carries ${name}, which is not documented`);
  }

  function expectConforms(res: Response, method: string, path: string) {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation)
      throw new Error(`${method} ${path} is not in the OpenAPI document`);
    const what = `${method} ${path} ${res.status}`;
    const documented = operation.responses[String(res.status)];
    if (!documented)
      throw new Error(`${what}: the document does not list this status`);
    expectHeaders(res, what, documented);
    const type = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!documented.content) {
      if (res.text)
        throw new Error(`${what} has a body the document does not describe`);
      return;
    }
    const media = documented.content[type];
    if (!media)
      throw new Error(
        `${what} answered ${type}, documented: ${Object.keys(documented.content).join(', ')}`,
      );
    const validate = ajv.compile(refs(media.schema));
    if (!validate(res.body))
      throw new Error(
        `${what} does not match its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body)}`,
      );
  }

  return Object.assign(expectConforms, { schema });
}
