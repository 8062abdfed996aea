import {
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  NestInterceptor,
} from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { concatMap, Observable, of } from 'rxjs';
import { pathParam, requestState } from '../../common/http/request-context';
import { TENANT_ID } from '../../common/validation/field-rules';
import { Metrics } from '../metrics';
import { Database } from '../../database/database';
import type { Replica, ReplicaSet } from '../../database/replicas/replica-set';
import type { WritePositions } from './write-positions';

export const WRITE_POSITIONS = Symbol('WRITE_POSITIONS');

const READS = new Set(['GET', 'HEAD']);

/**
 * Which database a request reads from, when replicas are configured. A GET
 * of an API route reads from a replica that is within the lag bound and has
 * replayed the tenant's latest write (its WAL position, recorded by every
 * write in Redis, so that a write on one instance is seen by reads on all);
 * otherwise, and for every conditional GET (If-None-Match: the caller has
 * seen a version, and must not be shown an older one), from the primary.
 * Writes, their preconditions and everything else use the primary.
 */
@Injectable()
export class ReadRouting {
  private readonly replicas: ReplicaSet;

  constructor(
    private readonly database: Database,
    @Inject(WRITE_POSITIONS) private readonly positions: WritePositions,
    private readonly metrics: Metrics,
  ) {
    this.replicas = database.replicas!;
  }

  /**
   * Express middleware, after the rate limit and before routing. Every GET
   * runs in a context that notes whether it writes; those of API routes may
   * read from a replica.
   */
  readonly middleware = (req: Request, _res: Response, next: NextFunction) => {
    if (!READS.has(req.method)) return next();
    if (!requestState(req).limited)
      return this.database.readFrom(undefined, next);
    this.replicaFor(req).then((replica) => {
      this.metrics.recordRead(replica ? 'replica' : 'primary');
      this.database.readFrom(replica, next);
    }, next);
  };

  private async replicaFor(req: Request): Promise<Replica | undefined> {
    if (req.headers['if-none-match'] !== undefined) return undefined;
    if (!this.replicas.anyWithinBound()) return undefined;
    const tenant = tenantOf(req);
    if (!tenant) return undefined;
    const written = await this.positions.latest(tenant);
    if (written === 'unknown') return undefined;
    return this.replicas.choose(written);
  }

  /** Records the primary's position after a tenant's write, before it is answered. */
  async written(tenantId: string): Promise<void> {
    await this.positions.record(tenantId, await this.database.writePosition());
  }

  /** Whether the request wrote: any but a GET or HEAD, or one of those that did. */
  wrote(req: Request): boolean {
    return !READS.has(req.method) || this.database.requestWrote;
  }
}

/** The tenant of an API path (its first segment), when it has the shape of one. */
function tenantOf(req: Request): string | undefined {
  const segment = req.path.split('/', 2)[1];
  let tenant: string;
  try {
    tenant = decodeURIComponent(segment);
  } catch {
    return undefined;
  }
  return TENANT_ID.test(tenant) ? tenant : undefined;
}

/**
 * After every successful write of a tenant's data (a request on a route
 * with a tenant other than a GET or HEAD, or a GET that wrote: a
 * just-in-time identity, a sign-in's lastLogin, an account linked by the
 * provider's callback), records the primary's WAL position before the
 * answer leaves, so that the caller's next read, on any instance, sees the
 * write. A position that cannot be recorded only lets a replica serve the
 * write's tenant sooner; it never fails the write. A request that wrote
 * and then failed records nothing: a token's first request that creates
 * its identity just in time and is then refused by the access rule leaves
 * the identity to reach the replicas within the bound (the token's next
 * request, not finding it there, finds it on the primary).
 */
@Injectable()
export class RecordWrites implements NestInterceptor {
  private readonly logger = new Logger('ReadRouting');

  constructor(private readonly routing: ReadRouting) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const tenant = pathParam(req, 'tenant');
    if (!TENANT_ID.test(tenant)) return next.handle();
    return next
      .handle()
      .pipe(
        concatMap((body: unknown) =>
          this.routing.wrote(req) ? this.record(tenant, body) : of(body),
        ),
      );
  }

  private async record(tenant: string, body: unknown): Promise<unknown> {
    await this.routing
      .written(tenant)
      .catch((error: Error) =>
        this.logger.warn(
          `The position of a write to ${tenant} was not recorded (${error.message}); its reads may lag by up to the replica bound`,
        ),
      );
    return body;
  }
}
