import { InvalidRequest } from '../common/errors';
import { filterToSql } from './scim-filter';
import { USER_FILTER_ATTRIBUTES } from './scim-users.repository';

const sql = (filter: string) => {
  const { text, values } = filterToSql(filter, USER_FILTER_ATTRIBUTES);
  return { text: text.replace(/\s+/g, ' '), values };
};

describe('filterToSql', () => {
  it('binds every value and folds case where the attribute ignores it', () => {
    expect(sql('userName eq "Ada"')).toStrictEqual({
      text: '(i.user_name IS NOT NULL AND ascii_lower(i.user_name) = ascii_lower($1))',
      values: ['Ada'],
    });
    expect(sql('externalId eq "X1"')).toStrictEqual({
      text: '(i.external_id IS NOT NULL AND i.external_id = $1)',
      values: ['X1'],
    });
  });

  it('escapes LIKE wildcards in co, sw and ew', () => {
    expect(sql('displayName co "50%_off"').values).toStrictEqual([
      '%50\\%\\_off%',
    ]);
    expect(sql('userName sw "a"').values).toStrictEqual(['a%']);
    expect(sql('userName ew "a"').values).toStrictEqual(['%a']);
  });

  it('combines and, or, not and value filters', () => {
    expect(
      sql('not (active eq false) and (emails[value ew "@x.org"] or id pr)'),
    ).toStrictEqual({
      text: "(NOT ((NOT i.disabled) = $1) AND (EXISTS (SELECT 1 FROM unnest(i.email_addresses) AS v(value) WHERE ascii_lower(v.value) LIKE ascii_lower($2) ESCAPE '\\') OR (i.identity_id IS NOT NULL AND i.identity_id <> '')))",
      values: [false, '%@x.org'],
    });
  });

  it('compares times as times', () => {
    expect(sql('meta.lastModified ge "2026-01-02T03:04:05Z"')).toStrictEqual({
      text: 'i.updated_at >= $1',
      values: [new Date('2026-01-02T03:04:05Z')],
    });
  });

  it.each([
    'title eq "x"',
    'userName eq',
    'userName xx "a"',
    'active eq "yes"',
    'active sw true',
    'userName eq 3',
    'meta.lastModified gt "soon"',
    'emails[type eq "work"]',
    '(userName eq "a"',
    '',
  ])('refuses %p as invalidFilter', (filter) => {
    let thrown: unknown;
    try {
      filterToSql(filter, USER_FILTER_ATTRIBUTES);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidRequest);
    expect((thrown as InvalidRequest).scimType).toBe('invalidFilter');
  });
});
