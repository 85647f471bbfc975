/** POST /invitations/withdraw's input: addresses and Employees row ids become one list of distinct addresses. */

import { withdrawInvitationsInput } from '@shared/schemas/invitations';
import { describe, expect, it } from 'vitest';

describe('withdrawInvitationsInput', () => {
  it('takes a comma list, an array and row ids, lower-cased and without repeats', () => {
    expect(
      withdrawInvitationsInput.parse({
        emails: ' Ann@X.test, ,bob@x.test',
        userIds: ['invite:bob@x.test', 'invite:cy@x.test'],
      }),
    ).toEqual({ emails: ['ann@x.test', 'bob@x.test', 'cy@x.test'] });
    expect(withdrawInvitationsInput.parse({ emails: ['a@x.test', 'A@x.test'] })).toEqual({
      emails: ['a@x.test'],
    });
  });

  it.each([
    ['nothing', {}, 'Please select at least one invitation'],
    ['blank entries only', { emails: ' , ' }, 'Please select at least one invitation'],
    ['a member’s id', { userIds: ['user-123'] }, 'Only invitations can be withdrawn'],
    [
      'more than 100 addresses',
      { emails: Array.from({ length: 101 }, (_, i) => `p${i}@x.test`).join(',') },
      'At most 100 invitations at a time',
    ],
  ])('refuses %s', (_name, input, message) => {
    const result = withdrawInvitationsInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });
});
