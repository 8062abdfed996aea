import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { SCIM_PATH } from './route-table';
import { SCIM_CONTENT_TYPE, toScimError } from './scim-error';

export const ANSWERS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'request-header-fields-too-large',
    'Request Header Fields Too Large',
    'The request headers are larger than the server accepts (16 KiB).',
  ],
  HPE_URI_TOO_LONG: [
    414,
    'uri-too-long',
    'URI Too Long',
    'The request URL is longer than the server accepts.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'request-timeout',
    'Request Timeout',
    'The request did not arrive in time.',
  ],
};
const MALFORMED: [number, string, string, string] = [
  400,
  'malformed-request',
  'Bad Request',
  'The request is not valid HTTP.',
];

/**
 * Answers requests that Node rejects before any route sees them (headers
 * too large, broken HTTP, too slow) as problem+json too, instead of Node's
 * empty responses, then closes the connection.
 */
export function answerClientErrors(server: Server): void {
  server.on(
    'clientError',
    (error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
      if (!socket.writable) return socket.destroy();
      const [status, slug, title, detail] =
        ANSWERS[error.code ?? ''] ?? MALFORMED;
      const requestLine =
        error.rawPacket?.toString('latin1').split('\r\n', 1)[0] ?? '';
      const path = /^[A-Z]+ (\/[^\s?#]{0,2048})/.exec(requestLine)?.[1] ?? '/';
      const problem = {
        type: `urn:problem:identity:${slug}`,
        title,
        status,
        detail,
        instance: path,
      };
      // Under the SCIM base, a SCIM error, as every other answer there.
      const scim = SCIM_PATH.test(path);
      const body = JSON.stringify(scim ? toScimError(problem) : problem);
      const type = scim
        ? `${SCIM_CONTENT_TYPE}; charset=utf-8`
        : 'application/problem+json';
      // The headers every answer carries: none of the request's can be read.
      socket.end(
        `HTTP/1.1 ${status} ${title}\r\nContent-Type: ${type}\r\n` +
          `Date: ${new Date().toUTCString()}\r\nCache-Control: no-store\r\n` +
          `X-Request-Id: ${randomUUID()}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  );
}
