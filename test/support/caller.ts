import type { Server } from 'node:http';
import request, { Test } from 'supertest';

/**
 * Requests of one caller: its token in the Authorization header (none for
 * ''), paths below `base`.
 */
export interface Caller {
  get(path?: string): Test;
  delete(path?: string): Test;
  /** A PUT with a JSON body: an object, or a string sent as it is. */
  put(path: string, body: object | string): Test;
}

export function caller(server: Server, token: string, base = ''): Caller {
  const send = (method: 'get' | 'put' | 'delete', path: string) => {
    const req = request(server)[method](base + path);
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };
  return {
    get: (path = '') => send('get', path),
    delete: (path = '') => send('delete', path),
    put: (path, body) =>
      send('put', path).set('Content-Type', 'application/json').send(body),
  };
}
