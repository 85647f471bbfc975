/** SCIM's pure rules (shared/src/domain/scim.ts): the filters and PATCH forms Okta and Entra send. */
import {
  pageOf,
  parseUserFilter,
  readPatch,
  readUserResource,
  SCHEMA,
  scimBoolean,
} from '@shared/domain/scim';
import { describe, expect, it } from 'vitest';

describe('parseUserFilter', () => {
  it.each([
    ['userName eq "a@b.co"', { attribute: 'userName', value: 'a@b.co' }],
    ['USERNAME EQ "a@b.co"', { attribute: 'userName', value: 'a@b.co' }],
    ['externalId eq "00u1"', { attribute: 'externalId', value: '00u1' }],
    [`${SCHEMA.user}:userName eq "x"`, { attribute: 'userName', value: 'x' }],
    ['userName eq "with \\"quote\\""', { attribute: 'userName', value: 'with "quote"' }],
  ])('%s', (filter, expected) => {
    expect(parseUserFilter(filter)).toEqual(expected);
  });

  it.each(['userName co "a"', 'displayName eq "a"', 'userName eq "a" or userName eq "b"', 'userName eq a'])(
    'refuses %s',
    (filter) => {
      expect(parseUserFilter(filter)).toHaveProperty('error');
    },
  );
});

describe('readPatch', () => {
  it.each([
    ['Okta deactivation', [{ op: 'replace', value: { active: false } }], { active: false }],
    ['Entra deactivation', [{ op: 'Replace', path: 'active', value: 'False' }], { active: false }],
    ['Entra activation', [{ op: 'Replace', path: 'active', value: 'True' }], { active: true }],
    ['a name by path', [{ op: 'Add', path: 'name.givenName', value: 'Ada' }], { givenName: 'Ada' }],
    [
      'the enterprise department',
      [{ op: 'replace', value: { [SCHEMA.enterpriseUser]: { department: 'R&D' } } }],
      { department: 'R&D' },
    ],
    [
      'an e-mail by filter path',
      [{ op: 'replace', path: 'emails[type eq "work"].value', value: 'A@B.co' }],
      { email: 'a@b.co' },
    ],
    ['remove externalId', [{ op: 'remove', path: 'externalId' }], { externalId: undefined }],
  ])('%s', (_name, operations, expected) => {
    expect(readPatch({ Operations: operations })).toEqual(expected);
  });

  it.each([
    ['no operations', {}, 'invalidSyntax'],
    ['an unknown op', { Operations: [{ op: 'move' }] }, 'invalidSyntax'],
    [
      'active not a boolean',
      { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] },
      'invalidValue',
    ],
    ['removing active', { Operations: [{ op: 'remove', path: 'active' }] }, 'mutability'],
  ])('refuses %s', (_name, body, scimType) => {
    expect(readPatch(body)).toMatchObject({ scimType });
  });
});

describe('readUserResource', () => {
  it('takes the primary e-mail as the address, userName otherwise, active by default', () => {
    expect(
      readUserResource({ userName: 'upn@corp.co', emails: [{ value: 'Work@Corp.co', primary: true }] }),
    ).toEqual({ userName: 'upn@corp.co', email: 'work@corp.co', active: true });
    expect(readUserResource({ userName: 'A@B.co', active: 'False' })).toEqual({
      userName: 'A@B.co',
      email: 'a@b.co',
      active: false,
    });
    expect(readUserResource({})).toMatchObject({ scimType: 'invalidValue' });
  });
});

describe('paging and booleans', () => {
  it.each([
    [undefined, undefined, { startIndex: 1, count: 200 }],
    ['0', '-5', { startIndex: 1, count: 0 }],
    ['3', '1000', { startIndex: 3, count: 200 }],
    ['x', 'y', { startIndex: 1, count: 200 }],
  ])('startIndex %s count %s', (start, count, expected) => {
    expect(pageOf(start, count, 200)).toEqual(expected);
  });

  it.each([
    [true, true],
    ['True', true],
    ['false', false],
    ['yes', undefined],
    [1, undefined],
  ])('%s', (value, expected) => {
    expect(scimBoolean(value)).toBe(expected);
  });
});
