import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
    example: 'urn:problem:identity:identity-not-found',
  })
  type: string;
  @ApiProperty({ example: 'Identity not found' })
  title: string;
  @ApiProperty({ example: 404 })
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
