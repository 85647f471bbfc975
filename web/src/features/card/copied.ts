import { copyMessages } from '../../content/consoleMessages';
import { COPIED_NOTICE_MS } from '../../content/timings';
import { notify } from '../../stores/notifications';

/** spec §8: 'Copied!', shown 1 second. */
export function announceCopied(): void {
  notify({ kind: 'success', message: copyMessages.copied, durationMs: COPIED_NOTICE_MS });
}
