import { Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { Database } from '../database/database';
import { builder, escapeLike, statement } from '../database/sql';
import { identitySelection } from '../identity/identity.repository';
import { SUMMARY_FIELDS } from './admin-identities.dto';

interface SearchParams {
  tenantId: string;
  /** A LIKE pattern; ascii_lower() folds it as it folds the values. */
  pattern: string;
  /** The last identityId of the page before ('' for the first page). */
  afterId: string;
  limit: number;
}

/** A value of identity `i` that matches the pattern, A–Z as a–z. */
const like = (value: string, p: SearchParams) =>
  sql<boolean>`ascii_lower(${sql.raw(value)}) LIKE ascii_lower(${p.pattern}) ESCAPE '\\'`;

/**
 * A page of the tenant's identities by identityId, those the pattern
 * matches (by id, userName, displayName or any e-mail address) with
 * `matching`: the primary key's range, read until the page is full.
 */
const identities = (matching: boolean) =>
  statement((p: SearchParams) =>
    builder
      .selectFrom('identity as i')
      .select(identitySelection(SUMMARY_FIELDS))
      .where('i.tenant_id', '=', p.tenantId)
      .where('i.identity_id', '>', p.afterId)
      .$if(matching, (q) =>
        q.where(
          sql<boolean>`(${like('i.identity_id', p)}
            OR ${like('i.user_name', p)}
            OR ${like('i.display_name', p)}
            OR EXISTS (SELECT 1 FROM unnest(i.email_addresses) AS e(address)
                        WHERE ${like('e.address', p)}))`,
        ),
      )
      .orderBy('i.identity_id')
      .limit(p.limit),
  );

const IDENTITIES = { all: identities(false), matching: identities(true) };

/** The tenant's identities as the administration API searches them. */
@Injectable()
export class AdminIdentitiesRepository {
  constructor(private readonly database: Database) {}

  /**
   * Up to `limit` identities after `afterId` by identityId, those holding
   * `text` when given (literally: no character of it is a wildcard).
   */
  findIdentities(
    tenantId: string,
    text: string | undefined,
    afterId: string | undefined,
    limit: number,
  ) {
    return this.database.read.rows(
      text === undefined ? IDENTITIES.all : IDENTITIES.matching,
      {
        tenantId,
        pattern: `%${escapeLike(text ?? '')}%`,
        afterId: afterId ?? '',
        limit,
      },
    );
  }
}
