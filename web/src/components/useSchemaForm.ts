import type { FieldErrors } from '@shared/errors';
import { fieldErrorsOf } from '@shared/schemas/common';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';

type FieldElement = HTMLInputElement & HTMLTextAreaElement;

/**
 * State for a small form validated by one of the shared zod schemas, so the
 * browser says the same thing as the server about the same input.
 *
 * - `field(name)` gives the props a <TextField> needs (value, error, ref).
 * - `validate()` returns the parsed values, or marks the invalid fields with
 *   the schema's messages and moves focus to the first of them.
 * - `applyServerErrors(fields)` does the same with a 400 answer's `fields`.
 * Editing a field clears its error.
 */
export function useSchemaForm<K extends string, S extends z.ZodType>(schema: S, initial: Record<K, string>) {
  const [values, setValues] = useState<Record<K, string>>(initial);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const elements = useRef(new Map<K, FieldElement | null>());
  // Focus moves after the render that adds aria-invalid and the message, so a
  // screen reader reads the field together with its error.
  const focusPending = useRef(false);
  const names = Object.keys(initial) as K[];

  useEffect(() => {
    if (!focusPending.current) return;
    focusPending.current = false;
    const first = names.find((name) => errors[name]);
    if (first) elements.current.get(first)?.focus();
  });

  const markErrors = useCallback((fields: Partial<Record<K, string>>) => {
    setErrors(fields);
    focusPending.current = true;
  }, []);

  function field(name: K) {
    return {
      name,
      value: values[name],
      error: errors[name],
      onValueChange: (value: string) => {
        setValues((previous) => ({ ...previous, [name]: value }));
        setErrors((previous) => (previous[name] ? { ...previous, [name]: undefined } : previous));
      },
      inputRef: (element: FieldElement | null) => {
        elements.current.set(name, element);
      },
    };
  }

  /** Only errors for fields this form shows; returns how many there were. */
  function known(fields: FieldErrors): Partial<Record<K, string>> {
    const result: Partial<Record<K, string>> = {};
    for (const name of names) {
      const message = fields[name];
      if (message) result[name] = message;
    }
    return result;
  }

  function validate(): z.output<S> | undefined {
    const result = schema.safeParse(values);
    if (result.success) {
      setErrors({});
      return result.data;
    }
    markErrors(known(fieldErrorsOf(result.error)));
    return undefined;
  }

  /** Marks the fields a server named; false if it named none this form shows. */
  function applyServerErrors(fields: FieldErrors | undefined): boolean {
    const mine = known(fields ?? {});
    if (Object.keys(mine).length === 0) return false;
    markErrors(mine);
    return true;
  }

  function reset() {
    setValues(initial);
    setErrors({});
  }

  return { values, errors, field, validate, applyServerErrors, reset };
}
