/**
 * Local stack only (config stage `local`): a link at the foot of the menu to
 * the time-travel page the local API serves (docs/local.md). The AWS
 * deployment's config says `aws`, and its API has no such page.
 */
import { Anchor, Text } from '@mantine/core';
import { currentConfig } from '../../config';

export function LocalTimeLink() {
  const config = currentConfig();
  if (config?.stage !== 'local') return null;
  return (
    <Text size="xs" c="gray.7" mt="lg">
      Local stack:{' '}
      <Anchor href={`${config.apiUrl}/_local/time`} target="_blank" rel="noreferrer" size="xs">
        move time forward
      </Anchor>
      {config.mailboxUrl ? (
        <>
          {' · '}
          <Anchor href={config.mailboxUrl} target="_blank" rel="noreferrer" size="xs">
            mailbox
          </Anchor>
        </>
      ) : null}
    </Text>
  );
}
