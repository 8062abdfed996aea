/** A role as the API returns it. */
export interface RoleResponse {
  name: string;
}
