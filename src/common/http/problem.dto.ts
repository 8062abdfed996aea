import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_TYPE_PREFIX } from './problem';

export class FieldErrorResponse {
  @ApiProperty({
    description: 'JSON path of the offending value',
    example: 'locality',
  })
  field: string;
  @ApiProperty({
    example:
      'must be a locality of the form xx-XX (ISO 639-1 language, ISO 3166-1 country)',
  })
  message: string;
}

/** An error as every route answers it: application/problem+json (RFC 9457). */
export class ProblemResponse {
  @ApiProperty({
    format: 'uri',
    pattern: `^${PROBLEM_TYPE_PREFIX}[a-z-]+$`,
    description: `${PROBLEM_TYPE_PREFIX}<slug>, one slug per kind of problem`,
    example: 'urn:problem:identity:identity-not-found',
  })
  type: string;
  @ApiProperty({ example: 'Identity not found' })
  title: string;
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 400,
    maximum: 599,
    description: 'the HTTP status of the answer',
    example: 404,
  })
  status: number;
  @ApiProperty({
    example: 'No identity "nobody" is visible to the caller in this tenant.',
  })
  detail: string;
  @ApiProperty({
    description: 'the request path, without its query string',
    example: '/demo/api/identity/v1/nobody',
  })
  instance: string;
  @ApiPropertyOptional({
    type: [FieldErrorResponse],
    description: 'validation errors, one per offending value',
  })
  errors?: FieldErrorResponse[];
}
