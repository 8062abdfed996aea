import { ApiProperty } from '@nestjs/swagger';

/** A role as the API returns it. */
export class RoleResponse {
  @ApiProperty({ description: 'name of the role', example: 'admin' })
  name: string;
}
