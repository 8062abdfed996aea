/**
 * The problem+json body a client sees (RFC 9457): its title is the class's
 * own, its instance the request's path unless a test names it.
 */
export const problemBody = (
  status: number,
  slug: string,
  detail: string,
  instance: unknown = expect.any(String),
) => ({
  type: `urn:problem:identity:${slug}`,
  title: expect.any(String),
  status,
  detail,
  instance,
});
