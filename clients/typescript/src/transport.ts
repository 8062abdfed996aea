/** What each layer of the client sends a request through. */
export type Fetch = (request: Request) => Promise<Response>;
