/**
 * The card's number, expiry and CVC, shown by the issuer in its own frame:
 * the page asks our API for a short-lived key (POST /me/cardKey) and the
 * frame, loaded from the issuer's origin with that key, shows the details.
 * The number never passes through our API, our code or our logs; the parent
 * page cannot read the frame. Copy buttons live inside the frame; it tells us
 * only which field was copied (we then say 'Copied!') and how tall it is.
 *
 * Locally the issuer is the Stripe emulator (docs/stripe-emulator.md). In AWS
 * this is where Stripe Issuing Elements mount (docs/decisions.md: not wired yet).
 */
import { Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { cardDialogMessages } from '../../content/consoleMessages';
import { announceCopied } from './copied';

type Frame = { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; message: string };

/** Until the frame tells us its height: enough for three rows at any width. */
const INITIAL_HEIGHT = 200;

export function CardFrame() {
  const [frame, setFrame] = useState<Frame>({ state: 'loading' });
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const iframe = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    call('getCardKey', {}, { signal: controller.signal }).then(
      (key) =>
        setFrame(
          key.frameUrl
            ? { state: 'ready', url: key.frameUrl }
            : { state: 'failed', message: cardDialogMessages.frameUnavailable },
        ),
      (error: unknown) => {
        if (!controller.signal.aborted) setFrame({ state: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (frame.state !== 'ready') return;
    const origin = new URL(frame.url).origin;
    function onMessage(event: MessageEvent) {
      // Only our frame's own messages count; they carry no card data, only what happened.
      if (event.origin !== origin || event.source !== iframe.current?.contentWindow) return;
      const data = event.data as { type?: unknown; copied?: unknown; height?: unknown };
      if (data.type === 'issuing_card_copy' && data.copied === true) announceCopied();
      if (data.type === 'issuing_card_size' && typeof data.height === 'number' && data.height > 0) {
        setHeight(Math.min(Math.ceil(data.height), 600));
      }
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame]);

  if (frame.state === 'loading') return <Loader size="sm" aria-label="Loading the card details" />;
  if (frame.state === 'failed') {
    return (
      <Text size="sm" c="red.9" role="alert">
        {frame.message}
      </Text>
    );
  }
  return (
    <iframe
      ref={iframe}
      src={frame.url}
      title="Card number, expiry and CVC"
      data-testid="card-frame"
      // The frame's copy buttons write to the clipboard from the issuer's origin.
      allow="clipboard-write"
      referrerPolicy="no-referrer"
      style={{ border: 0, width: '100%', height, display: 'block', colorScheme: 'normal' }}
    />
  );
}
