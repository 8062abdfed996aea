import type { INestApplication } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RouteTable } from '../common/http/route-table';

/** Where `npm run build` puts the console (scripts/build-console.js). */
const CONSOLE_DIR = join(__dirname, '..', '..', 'dist', 'console');

/** The console's files, by the name after `/console/`; nothing else is served. */
const FILES: Record<string, { file: string; type: string }> = {
  '': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'index.html': { file: 'index.html', type: 'text/html; charset=utf-8' },
  'console.js': { file: 'console.js', type: 'text/javascript; charset=utf-8' },
  'console.css': { file: 'console.css', type: 'text/css; charset=utf-8' },
};

/**
 * Its own scripts, styles and calls to this origin only: no inline script
 * or style, nothing from elsewhere, in no frame.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * Serves the administrators' console at /console/: its three built files,
 * read once, with a strict Content-Security-Policy; /console redirects
 * there. Any other path under it is left to the routes (404). Without a
 * build (dist/console/ missing) the console's paths answer 404 as well.
 */
export function setupConsole(app: INestApplication): void {
  const routes = app.get(RouteTable);
  for (const name of Object.keys(FILES)) routes.add('GET', `console/${name}`);
  const assets = new Map<string, Asset | undefined>();
  const asset = (name: string) => {
    if (!assets.has(name)) assets.set(name, readAsset(FILES[name]));
    return assets.get(name);
  };
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (!req.path.startsWith('/console')) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/console') {
      if (!asset('')) return next();
      consoleHeaders(res);
      return res.redirect(301, '/console/');
    }
    const name = req.path.slice('/console/'.length);
    const found =
      req.path.startsWith('/console/') && Object.hasOwn(FILES, name)
        ? asset(name)
        : undefined;
    if (!found) return next();
    consoleHeaders(res);
    res.setHeader('ETag', found.etag);
    if (req.fresh) return res.status(304).end();
    res.setHeader('Content-Type', found.type);
    res.setHeader('Content-Length', found.body.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : found.body);
  });
}

function consoleHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
}

function readAsset({ file, type }: { file: string; type: string }) {
  try {
    const body = readFileSync(join(CONSOLE_DIR, file));
    const hash = createHash('sha256').update(body).digest('base64url');
    return { body, type, etag: `"${hash.slice(0, 27)}"` };
  } catch {
    return undefined;
  }
}
