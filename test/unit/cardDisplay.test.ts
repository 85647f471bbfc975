/**
 * How the card dialog shows the card (web/src/features/card/cardDisplay.ts):
 * the emulator's frame when the server names one, Stripe Issuing Elements in
 * AWS with a publishable key, otherwise the 'cannot be shown' line. Also the
 * CSP's script origins: Stripe.js only where the AWS stack asks for it.
 */

import { cardKeyOutput } from '@shared/schemas/team';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../infra/lib/webSecurityHeaders';
import type { AppConfig } from '../../web/src/config';
import { chooseCardDisplay } from '../../web/src/features/card/cardDisplay';

const base = {
  apiUrl: 'https://api.example.com',
  region: 'us-east-1',
  userPoolId: 'us-east-1_x',
  userPoolClientId: 'client',
} as const;
const aws: AppConfig = {
  ...base,
  stage: 'aws',
  stripe: { publishableKey: 'pk_test_abc', apiUrl: 'https://api.stripe.com' },
};
const local: AppConfig = {
  ...base,
  stage: 'local',
  stripe: { publishableKey: 'pk_test_local', apiUrl: 'http://127.0.0.1:4010' },
};
const frameUrl = 'http://127.0.0.1:4010/issuing-elements/card?card=ic_1&ephemeral_key=ek_1';

describe('chooseCardDisplay', () => {
  it.each([
    [
      'the emulator names a frame (local)',
      { cardId: 'ic_1', ephemeralKeySecret: 'ek_1', frameUrl },
      local,
      { mode: 'frame', url: frameUrl },
    ],
    [
      'a frame wins even with an AWS config',
      { cardId: 'ic_1', frameUrl },
      aws,
      { mode: 'frame', url: frameUrl },
    ],
    [
      'AWS with a publishable key: Issuing Elements',
      { cardId: 'ic_1' },
      aws,
      { mode: 'elements', cardId: 'ic_1', publishableKey: 'pk_test_abc' },
    ],
    [
      'AWS without a publishable key',
      { cardId: 'ic_1' },
      { ...aws, stripe: undefined },
      { mode: 'unavailable' },
    ],
    ['no frame locally (no Stripe.js there)', { cardId: 'ic_1' }, local, { mode: 'unavailable' }],
    ['no config at all', { cardId: 'ic_1' }, undefined, { mode: 'unavailable' }],
  ] as const)('%s', (_, key, config, expected) => {
    expect(chooseCardDisplay(key, config)).toEqual(expected);
  });
});

describe('cardKeyOutput', () => {
  it('accepts the AWS answer without a key (the page then asks again with a nonce)', () => {
    expect(cardKeyOutput.parse({ cardId: 'ic_1' })).toEqual({ cardId: 'ic_1' });
  });
  it('accepts the local answer with key and frame', () => {
    const answer = { cardId: 'ic_1', ephemeralKeySecret: 'ek_1', expires: 1, frameUrl };
    expect(cardKeyOutput.parse(answer)).toEqual(answer);
  });
});

describe('contentSecurityPolicy script-src', () => {
  const sources = { connect: [], img: [], frame: [], upgradeInsecure: false };
  const scriptSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('script-src '));
  it('is the app alone without extra origins (local)', () => {
    expect(scriptSrc(contentSecurityPolicy({ ...sources, script: [] }))).toBe("script-src 'self'");
  });
  it('adds Stripe.js when asked (AWS)', () => {
    expect(scriptSrc(contentSecurityPolicy({ ...sources, script: ['https://js.stripe.com'] }))).toBe(
      "script-src 'self' https://js.stripe.com",
    );
  });
});
