import { PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { InvalidRequest } from '../errors';
import { findUnsafeKeys, toFieldErrors } from './field-errors';

/**
 * A JSON object body checked against a class's rules: any key the class
 * does not name is refused, and every problem is named in one 400.
 */
export class JsonBodyPipe<T extends object> implements PipeTransform<
  unknown,
  T
> {
  constructor(
    private readonly rules: new () => T,
    private readonly keys: readonly (keyof T & string)[],
  ) {}

  transform(body: unknown): T {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new InvalidRequest('The body must be a JSON object.');
    const known = new Set<string>(this.keys);
    const unknown = [
      ...findUnsafeKeys(body),
      ...Object.keys(body).filter(
        (key) => !known.has(key) && !findUnsafeKeys({ [key]: 0 }).length,
      ),
    ].map((field) => ({ field, message: 'is not a known field' }));
    if (unknown.length)
      throw new InvalidRequest(
        `The body has unknown fields: ${unknown.map((e) => e.field).join(', ')}.`,
        unknown,
      );
    const errors = toFieldErrors(
      validateSync(plainToInstance(this.rules, body), {
        stopAtFirstError: true,
        // Nested objects (a provider's link settings) refuse unknown keys too.
        whitelist: true,
        forbidNonWhitelisted: true,
      }),
    );
    if (errors.length)
      throw new InvalidRequest(
        errors.map((e) => `${e.field} ${e.message}`).join('; '),
        errors,
      );
    return body as T;
  }
}
