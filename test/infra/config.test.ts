import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { configFromContext, emailAddressOf, resolveConfig } from '../../infra/lib/config';

describe('deployment settings', () => {
  it('has working defaults for a first synth', () => {
    const config = resolveConfig({});
    expect(config).toMatchObject({
      stage: 'dev',
      region: 'us-east-1',
      webOrigin: 'https://example.com',
      stripeApiKeySecretName: 'dev/stripe/api-key',
      sesIdentity: 'example.com',
      oauthCallbackPath: '/auth/callback',
    });
    expect(config.webDistDir).toMatch(/web\/dist$/);
  });

  it('derives names from the stage and the SES identity from mailFrom', () => {
    const config = resolveConfig({ stage: 'prod', mailFrom: 'Budget <hi@mail.example.org>' });
    expect(config.stripeApiKeySecretName).toBe('prod/stripe/api-key');
    expect(config.stripeWebhookSecretName).toBe('prod/stripe/webhook-secret');
    expect(config.sesIdentity).toBe('mail.example.org');
    expect(emailAddressOf(config.mailFrom)).toBe('hi@mail.example.org');
  });

  it('takes the web origin from a custom domain', () => {
    const config = resolveConfig({
      domainName: 'app.example.org',
      certificateArn: 'arn:aws:acm:us-east-1:1:certificate/x',
    });
    expect(config.webOrigin).toBe('https://app.example.org');
  });

  it.each([
    [{ stage: 'Prod' }, /stage/],
    [{ region: 'eu-west-1' }, /cloudFrontWebAclArn/],
    [
      {
        region: 'eu-west-1',
        cloudFrontWebAclArn: 'arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/a/b',
      },
      /global/,
    ],
    [
      { cloudFrontWebAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/a/b' },
      /only for regions other than us-east-1/,
    ],
    [{ webOrigin: 'http://app.example.org' }, /webOrigin/],
    [{ webOrigin: 'https://app.example.org/path' }, /webOrigin/],
    [{ mailFrom: 'not-an-address' }, /mailFrom/],
    [{ supportInbox: 'nobody' }, /supportInbox/],
    [{ googleSecretName: 'dev/google' }, /authDomainPrefix/],
    // A secret key would be served to every visitor in config.json.
    [{ stripePublishableKey: 'sk_live_abc' }, /stripePublishableKey/],
    [{ domainName: 'app.example.org' }, /certificateArn/],
  ])('refuses %j', (input, message) => {
    expect(() => resolveConfig(input)).toThrow(message);
  });

  it('reads known keys from CDK context and ignores empty ones', () => {
    const app = new App({ context: { stage: 'qa', webOrigin: '', mailFrom: 'a@b.example' } });
    expect(configFromContext(app.node)).toEqual({ stage: 'qa', mailFrom: 'a@b.example' });
  });
});
