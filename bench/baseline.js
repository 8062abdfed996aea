#!/usr/bin/env node
// The floor for this stack on this machine: node:http and pg, no framework,
// answering the benchmark's routes with the same bodies as the service (the
// same token lookup by hash, the same queries, the same JSON shapes). Only
// the happy paths the benchmark drives are served; anything else is 404.
// Each route uses the fewest round trips the work allows: the token lookup
// reads the caller's identity with it, an {id} route reads the target once,
// and PUT writes the identity and its change event in one statement.
//
// Every query is a named statement, so each connection parses and plans it
// once and then only binds and executes it: the cheapest correct way to send
// these queries. BASELINE_STATEMENTS=unnamed sends them as unnamed statements
// instead, parsed and planned again on every request, as the service's
// Prisma client does (`npm run bench -- --unnamed` shows both).
const { createHash } = require('node:crypto');
const { createServer } = require('node:http');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });
const ROUTE = /^\/([^/]+)\/api\/identity\/v1(?:\/([^/?]+))?(?:\/(accounts|friends|roles))?$/;
const NAMED = process.env.BASELINE_STATEMENTS !== 'unnamed';
const query = (name, text, values) => pool.query(NAMED ? { name, text, values } : { text, values });
const present = (o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0 && v !== o.accounts)));

const CALLER = `
  SELECT t.tenant_id AS t_tenant_id, t.type::text AS t_type, t.account_id AS t_account_id, t.scopes AS t_scopes,
         t.expires_at AS t_expires_at, t.revoked_at AS t_revoked_at,
         EXISTS (SELECT 1 FROM role_assignment ra JOIN tenant tn ON tn.id = ra.tenant_id
                  WHERE ra.tenant_id = t.tenant_id AND ra.identity_id = t.identity_id AND ra.role_name = ANY (tn.admin_roles)) AS t_is_admin,
         i.*
    FROM token t LEFT JOIN identity i ON i.tenant_id = t.tenant_id AND i.identity_id = t.identity_id
   WHERE t.token_hash = $1`;
const IDENTITY = `SELECT * FROM identity WHERE tenant_id = $1 AND identity_id = $2`;
const UPDATE = `
  WITH u AS (UPDATE identity SET display_name = $3, version = nextval('identity_version_seq'), updated_at = now()
              WHERE tenant_id = $1 AND identity_id = $2 RETURNING *),
       l AS (SELECT pg_advisory_xact_lock(${0x1d3e}, hashtext($1)) FROM u),
       e AS (INSERT INTO identity_event (tenant_id, identity_id, type, fields) SELECT $1, $2, 'updated', ARRAY['displayName'] FROM l)
  SELECT * FROM u`;
const ACCOUNTS = `
  SELECT p.account_provider_id, p.display_name AS p_display_name, p.provider_image_url, p.sign_in_url, p.allows_multiple_accounts,
         a.account_id, a.issued_user_id, a.account_private_personal_identifier, a.display_name, a.email_address, a.account_profile_url, a.picture_url
    FROM account_provider p LEFT JOIN account a ON a.tenant_id = p.tenant_id AND a.account_provider_id = p.account_provider_id AND a.identity_id = $2
   WHERE p.tenant_id = $1 ORDER BY p.position, a.account_id`;
const FRIENDS = `
  WITH fetched AS (
    SELECT i.identity_id, coalesce(i.display_name, '') AS sort_name, i.display_name, i.small_pictures, i.medium_pictures, i.large_pictures
      FROM identity i
     WHERE i.tenant_id = $1 AND i.identity_id = ANY (ARRAY(SELECT f.friend_id FROM friendship f WHERE f.tenant_id = $1 AND f.identity_id = $2))
     ORDER BY 2, 1 LIMIT $3::int + 1
  ), numbered AS (SELECT fetched.*, row_number() OVER (ORDER BY sort_name, identity_id) AS n FROM fetched),
  page AS (SELECT * FROM numbered WHERE $3::int IS NULL OR n <= $3::int)
  SELECT (SELECT string_agg(json_strip_nulls(row_to_json((
            SELECT f FROM (SELECT page.identity_id AS "identityId", page.display_name AS "displayName",
                                  nullif(page.small_pictures, '{}') AS "smallPictures", nullif(page.medium_pictures, '{}') AS "mediumPictures",
                                  nullif(page.large_pictures, '{}') AS "largePictures") AS f)))::text, ',' ORDER BY n) FROM page) AS items,
         (SELECT count(*)::int FROM numbered) AS fetched,
         last.sort_name AS last_name, last.identity_id AS last_id
    FROM (SELECT 1) AS one LEFT JOIN (SELECT sort_name, identity_id FROM page ORDER BY n DESC LIMIT 1) AS last ON true`;
const ROLES = `SELECT role_name FROM role_assignment WHERE tenant_id = $1 AND identity_id = $2 ORDER BY role_name LIMIT $3`;

function identityBody(r) {
  return {
    identityId: r.identity_id, disabled: r.disabled, isArchived: r.is_archived,
    emailAddresses: r.email_addresses, emailAddressVerified: r.email_address_verified,
    givenNames: r.given_names, surnames: r.surnames, localities: r.localities,
    mobilePhoneVerified: r.mobile_phone_verified, oldIdentityIds: r.old_identity_ids, properties: r.properties,
    ...present({
      displayName: r.display_name, userName: r.user_name, emailAddress: r.email_address, givenName: r.given_name,
      surname: r.surname, locality: r.locality, mobilePhone: r.mobile_phone,
      privatePersonalIdentifier: r.private_personal_identifier,
      lastLogin: r.last_login && r.last_login.toISOString().slice(0, 23),
      smallPictures: r.small_pictures, mediumPictures: r.medium_pictures, largePictures: r.large_pictures,
      userNamePasswordAccountUserName: r.user_name_password_account_user_name,
    }),
  };
}

function accountsBody(rows, current) {
  const entries = [];
  for (const r of rows) {
    let e = entries[entries.length - 1];
    if (!e || e.accountProviderId !== r.account_provider_id) {
      e = { accountProviderId: r.account_provider_id, accounts: [], canAddAnotherAccount: true, signInUrl: r.sign_in_url, ...present({ displayName: r.p_display_name, providerImageUrl: r.provider_image_url }) };
      e.multiple = r.allows_multiple_accounts;
      entries.push(e);
    }
    if (r.account_id === null) continue;
    e.accounts.push({ accountId: r.account_id, issuedUserId: r.issued_user_id, isCurrent: r.account_id === current, ...present({ accountPrivatePersonalIdentifier: r.account_private_personal_identifier, accountProfileUrl: r.account_profile_url, displayName: r.display_name, emailAddress: r.email_address, pictureUrl: r.picture_url }) });
    e.canAddAnotherAccount = e.multiple;
  }
  return entries.map(({ multiple, ...e }) => e);
}

async function handle(req, res) {
  const url = new URL(req.url, 'http://x');
  const m = ROUTE.exec(url.pathname);
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '') || url.searchParams.get('access_token');
  if (!m || !token) return send(res, 404, { status: 404 });
  let [, tenant, id, relation] = m;
  if (!relation && ['accounts', 'friends', 'roles'].includes(id)) [id, relation] = [undefined, id];
  const { rows: [caller] } = await query('caller', CALLER, [createHash('sha256').update(token).digest('hex')]);
  if (!caller || caller.t_tenant_id !== tenant || caller.t_revoked_at || (caller.t_expires_at && caller.t_expires_at <= new Date()))
    return send(res, 401, { status: 401 });
  const target = id ?? caller.identity_id;
  // The {id} routes of an app token: the target, read once.
  let row = id ? undefined : caller;
  if (id && caller.t_type === 'app') {
    row = (await query('identity', IDENTITY, [tenant, id])).rows[0];
    if (!row) return send(res, 404, { status: 404 });
  }
  const limit = url.searchParams.get('limit');
  if (req.method === 'PUT') {
    const body = JSON.parse(await new Promise((done) => { let b = ''; req.on('data', (c) => (b += c)); req.on('end', () => done(b)); }));
    const { rows: [updated] } = await query('update', UPDATE, [tenant, target, body.displayName]);
    return send(res, 200, identityBody(updated), `"${updated.version}"`);
  }
  if (!relation) return send(res, 200, identityBody(row), `"${row.version}"`);
  if (relation === 'accounts') return send(res, 200, accountsBody((await query('accounts', ACCOUNTS, [tenant, target])).rows, caller.t_type === 'access' ? caller.t_account_id : null));
  if (relation === 'friends') {
    const { rows: [page] } = await query('friends', FRIENDS, [tenant, target, limit === null ? null : Number(limit)]);
    return send(res, 200, `[${page.items ?? ''}]`);
  }
  const { rows } = await query('roles', ROLES, [tenant, target, limit === null ? null : Number(limit)]);
  return send(res, 200, rows.map((r) => ({ name: r.role_name })));
}

function send(res, status, body, etag) {
  const json = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = { 'Content-Type': status < 400 ? 'application/json; charset=utf-8' : 'application/problem+json', 'Content-Length': Buffer.byteLength(json), 'Cache-Control': 'private, no-cache' };
  if (etag) headers.ETag = etag;
  res.writeHead(status, headers).end(json);
}

createServer((req, res) => handle(req, res).catch(() => send(res, 500, { status: 500 }))).listen(Number(process.env.PORT ?? 3100), () =>
  console.log(`Baseline (${NAMED ? 'named' : 'unnamed'} statements) listening on ${process.env.PORT ?? 3100}`),
);
