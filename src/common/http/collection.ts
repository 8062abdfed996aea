import type { Request, Response } from 'express';
import { Collection, encodeCursor } from '../pagination';
import { conditionalJson } from './conditional';

/**
 * Answers a collection: its JSON with a tag of its bytes (304 when the
 * client holds it), and `Link: <…>; rel="next"` (RFC 8288) when a page
 * follows. The link repeats neither the token nor other parameters.
 */
export function answerCollection(
  req: Request,
  res: Response,
  { items, next }: Collection<unknown[] | string>,
): string | undefined {
  if (next)
    res.setHeader(
      'Link',
      `<${req.path}?limit=${next.limit}&cursor=${encodeCursor(next.after)}>; rel="next"`,
    );
  return conditionalJson(
    req,
    res,
    typeof items === 'string' ? items : JSON.stringify(items),
  );
}
