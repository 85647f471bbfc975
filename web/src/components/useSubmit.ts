import { type FormEvent, useState } from 'react';

/**
 * A form's submit: validates, then runs `action` with the parsed input, one
 * submission at a time (`busy` meanwhile, for the button). What a failure
 * means differs per form, so `action` handles its own errors.
 */
export function useSubmit<T>(validate: () => T | undefined, action: (input: T) => Promise<unknown>) {
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const input = validate();
    if (input === undefined) return;
    setBusy(true);
    try {
      await action(input);
    } finally {
      setBusy(false);
    }
  }
  return { busy, onSubmit };
}
