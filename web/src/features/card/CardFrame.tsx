/**
 * The card's number, expiry and CVC, shown by the issuer in its own frames:
 * the page asks our API for a short-lived key (POST /me/cardKey) and the
 * issuer's frames, loaded from its origin with that key, show the details.
 * The number never passes through our API, our code or our logs; the parent
 * page cannot read the frames. Copying happens inside them; we only learn that
 * it happened (and then say 'Copied!').
 *
 * Which issuer frame: ./cardDisplay.ts. Locally the Stripe emulator names one
 * page with three fields and copy buttons (docs/stripe-emulator.md), which also
 * tells us its height. In AWS, Stripe Issuing Elements (./issuingElements.ts).
 */
import { Group, Loader, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { loadConfig } from '../../config';
import { cardDialogMessages } from '../../content/consoleMessages';
import { chooseCardDisplay } from './cardDisplay';
import { announceCopied } from './copied';

type Frame =
  | { state: 'loading' }
  | { state: 'ready'; url: string }
  | { state: 'elements'; cardId: string; publishableKey: string }
  | { state: 'failed'; message: string };

/** Until the frame tells us its height: enough for three rows at any width. */
const INITIAL_HEIGHT = 200;

export function CardFrame() {
  const [frame, setFrame] = useState<Frame>({ state: 'loading' });
  const [height, setHeight] = useState(INITIAL_HEIGHT);
  const iframe = useRef<HTMLIFrameElement>(null);
  const elementsFailed = useCallback((message: string) => setFrame({ state: 'failed', message }), []);

  useEffect(() => {
    const controller = new AbortController();
    // Loaded once at start (main.tsx): this waits only if it has not arrived yet.
    const config = loadConfig().catch(() => undefined);
    Promise.all([call('getCardKey', {}, { signal: controller.signal }), config]).then(
      ([key, appConfig]) => {
        const display = chooseCardDisplay(key, appConfig);
        if (display.mode === 'frame') setFrame({ state: 'ready', url: display.url });
        else if (display.mode === 'elements') {
          setFrame({ state: 'elements', cardId: display.cardId, publishableKey: display.publishableKey });
        } else setFrame({ state: 'failed', message: cardDialogMessages.frameUnavailable });
      },
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

  if (frame.state === 'loading')
    return <Loader size="sm" role="status" aria-label="Loading the card details" />;
  if (frame.state === 'elements') {
    return (
      <IssuingElements
        cardId={frame.cardId}
        publishableKey={frame.publishableKey}
        onFailed={elementsFailed}
      />
    );
  }
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

/** Stripe Issuing Elements: Stripe.js mounts its frames into these slots (AWS only). */
function IssuingElements(props: {
  cardId: string;
  publishableKey: string;
  onFailed: (message: string) => void;
}) {
  const { cardId, publishableKey, onFailed } = props;
  const number = useRef<HTMLDivElement>(null);
  const expiry = useRef<HTMLDivElement>(null);
  const cvc = useRef<HTMLDivElement>(null);
  const copyNumber = useRef<HTMLDivElement>(null);
  const [mounted, setMounted] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let remove: (() => void) | undefined;
    if (!number.current || !expiry.current || !cvc.current || !copyNumber.current) return;
    const slots = {
      number: number.current,
      expiry: expiry.current,
      cvc: cvc.current,
      copyNumber: copyNumber.current,
    };
    import('./issuingElements')
      .then(({ mountIssuingElements }) =>
        mountIssuingElements({
          cardId,
          publishableKey,
          slots,
          signal: controller.signal,
          onCopy: announceCopied,
        }),
      )
      .then(
        (unmount) => {
          if (controller.signal.aborted) unmount();
          else {
            remove = unmount;
            setMounted(true);
          }
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          // Stripe.js's own reasons are for us, not the employee: log them, show ours.
          console.error('Stripe Issuing Elements failed', error);
          onFailed(cardDialogMessages.frameUnavailable);
        },
      );
    return () => {
      controller.abort();
      remove?.();
    };
  }, [cardId, publishableKey, onFailed]);

  return (
    <Stack gap="xs" data-testid="card-elements" aria-busy={!mounted}>
      {mounted ? null : <Loader size="sm" role="status" aria-label="Loading the card details" />}
      <div>
        <Text size="xs" c="gray.7">
          Card number
        </Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <div ref={number} style={{ flex: 1, minHeight: 24 }} />
          <div ref={copyNumber} style={{ width: 24, height: 24 }} />
        </Group>
      </div>
      <Group gap="lg" grow>
        <div>
          <Text size="xs" c="gray.7">
            Expiry
          </Text>
          <div ref={expiry} style={{ minHeight: 24 }} />
        </div>
        <div>
          <Text size="xs" c="gray.7">
            CVC
          </Text>
          <div ref={cvc} style={{ minHeight: 24 }} />
        </div>
      </Group>
    </Stack>
  );
}
