/**
 * The card form of spec §5, shared by the setup wizard's Billing Info step and
 * /dashboard/addcreditcard: business name (setup only), name on card, card
 * number, expiration (MM/YYYY), CVC, billing address, Country fixed to US.
 * The rules live in shared/src/domain/cardForm.ts; this file only shows them.
 *
 * `useCardForm` keeps the values and messages; `tokenize()` checks everything,
 * then sends the card to the provider's tokenizer (never to our API) and
 * returns the token, or undefined with the messages shown.
 */
import { Alert, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  CARD_COUNTRY,
  type CardFormErrors,
  type CardFormField,
  type CardFormValues,
  cardFormComplete,
  cardFormErrorsFromServer,
  cardTokenRequest,
  checkCardField,
  checkCardForm,
  US_STATES,
} from '@shared/domain/cardForm';
import type { FieldErrors } from '@shared/errors';
import { CARD_FORM_MAX } from '@shared/schemas/billing';
import { useCallback, useRef, useState } from 'react';
import { CardProviderError, type CardToken, createCardToken } from './cardTokenizer';

const EMPTY: CardFormValues = {
  name: '',
  number: '',
  expiry: '',
  cvc: '',
  address1: '',
  address2: '',
  country: CARD_COUNTRY,
  state: '',
  city: '',
  zip: '',
};

/** In the order the fields are shown, so the first message gets the focus. */
const FIELD_ORDER: CardFormField[] = [
  'businessName',
  'name',
  'number',
  'expiry',
  'cvc',
  'address1',
  'address2',
  'city',
  'state',
  'zip',
  'country',
];

export type TokenizeResult =
  | { ok: true; token: CardToken }
  /** `providerError`: the provider refused the card (its words); absent: the form's own checks failed. */
  | { ok: false; providerError?: string };

export interface CardFormState {
  values: CardFormValues;
  errors: CardFormErrors;
  /** The provider's refusal, in its words (shown above the card fields). */
  providerError: string | undefined;
  withBusinessName: boolean;
  /** Every required field is non-blank: Submit may be enabled (spec §5). */
  complete: boolean;
  change: (field: CardFormField, value: string) => void;
  blur: (field: CardFormField) => void;
  /** Checks the form, then makes a token; otherwise what was wrong (already shown on the form). */
  tokenize: () => Promise<TokenizeResult>;
  /** Where each field's input is, for focusing the first message. */
  register: (field: CardFormField) => (element: HTMLElement | null) => void;
  /** Shows the server's refusal on the fields it names, focusing the first; false when it named none of them. */
  showServerErrors: (fields: FieldErrors | undefined) => boolean;
  /** Fills a field with what we know already (the company given at sign-up), unless someone typed in it. */
  prefill: (field: CardFormField, value: string) => void;
}

export function useCardForm(withBusinessName: boolean): CardFormState {
  const [values, setValues] = useState<CardFormValues>(() =>
    withBusinessName ? { ...EMPTY, businessName: '' } : EMPTY,
  );
  const [errors, setErrors] = useState<CardFormErrors>({});
  const [providerError, setProviderError] = useState<string | undefined>();
  const elements = useRef(new Map<CardFormField, HTMLElement>());
  /** Fields someone has typed in: only those get a message on leaving them. */
  const touched = useRef(new Set<CardFormField>());

  const change = useCallback((field: CardFormField, value: string) => {
    touched.current.add(field);
    setValues((previous) => ({ ...previous, [field]: value }));
    setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous));
    setProviderError(undefined);
  }, []);

  const blur = useCallback(
    (field: CardFormField) => {
      // Leaving a field nobody typed in says nothing; one typed in (or emptied) is checked.
      if (!touched.current.has(field)) return;
      const message = checkCardField(field, values, new Date());
      setErrors((previous) => ({ ...previous, [field]: message }));
    },
    [values],
  );

  const focusFirst = (found: CardFormErrors) => {
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) elements.current.get(first)?.focus();
  };

  const tokenize = async (): Promise<TokenizeResult> => {
    setProviderError(undefined);
    const found = checkCardForm(values, withBusinessName, new Date());
    setErrors(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return { ok: false };
    }
    try {
      return { ok: true, token: await createCardToken(cardTokenRequest(values)) };
    } catch (error) {
      const message = error instanceof CardProviderError ? error.message : String(error);
      setProviderError(message);
      if (error instanceof CardProviderError && error.field) {
        const field = error.field;
        setErrors((previous) => ({ ...previous, [field]: message }));
        elements.current.get(field)?.focus();
      }
      return { ok: false, providerError: message };
    }
  };

  const showServerErrors = (fields: FieldErrors | undefined): boolean => {
    const found = cardFormErrorsFromServer(fields ?? {});
    if (Object.keys(found).length === 0) return false;
    setErrors((previous) => ({ ...previous, ...found }));
    focusFirst(found);
    return true;
  };

  const prefill = useCallback((field: CardFormField, value: string) => {
    if (touched.current.has(field)) return;
    setValues((previous) => (previous[field] ? previous : { ...previous, [field]: value }));
  }, []);

  const register = (field: CardFormField) => (element: HTMLElement | null) => {
    if (element) elements.current.set(field, element);
    else elements.current.delete(field);
  };

  return {
    values,
    errors,
    providerError,
    withBusinessName,
    complete: cardFormComplete(values, withBusinessName),
    change,
    blur,
    tokenize,
    register,
    showServerErrors,
    prefill,
  };
}

/** Beside a disabled Submit: why it is disabled (spec §5 enables it only when every required field is filled). */
export function IncompleteHint({ form }: { form: CardFormState }) {
  if (form.complete) return null;
  return (
    <Text size="sm" c="gray.7">
      Fill in every field marked * to submit.
    </Text>
  );
}

/** The fields themselves; the caller owns the <form>, its buttons and what happens on submit. */
export function CardFields({ form }: { form: CardFormState }) {
  const { values, errors } = form;
  const text = (field: CardFormField) => ({
    ref: form.register(field),
    value: values[field] ?? '',
    error: errors[field],
    onChange: (event: { currentTarget: { value: string } }) => form.change(field, event.currentTarget.value),
    onBlur: () => form.blur(field),
  });

  return (
    <Stack gap="md">
      {form.providerError ? (
        <Alert color="red" variant="light" title="The card was not accepted" role="alert">
          {form.providerError}
        </Alert>
      ) : null}
      {form.withBusinessName ? (
        <TextInput
          label="Business Name"
          required
          autoComplete="organization"
          maxLength={CARD_FORM_MAX.businessName}
          {...text('businessName')}
        />
      ) : null}
      <TextInput
        label="Name on Card"
        required
        autoComplete="cc-name"
        maxLength={CARD_FORM_MAX.name}
        {...text('name')}
      />
      <TextInput
        label="Card Number"
        required
        autoComplete="cc-number"
        inputMode="numeric"
        {...text('number')}
      />
      {/* Side by side, each with a hint under its label, so the two boxes line up. */}
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextInput
          label="Expiration"
          description="MM/YYYY"
          placeholder="MM/YYYY"
          required
          autoComplete="cc-exp"
          {...text('expiry')}
        />
        <TextInput
          label="CVC"
          description="3 or 4 digits"
          required
          autoComplete="cc-csc"
          inputMode="numeric"
          {...text('cvc')}
        />
      </SimpleGrid>
      <TextInput
        label="Address"
        required
        autoComplete="address-line1"
        maxLength={CARD_FORM_MAX.address1}
        {...text('address1')}
      />
      <TextInput
        label="Address line 2"
        autoComplete="address-line2"
        maxLength={CARD_FORM_MAX.address2}
        {...text('address2')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
        <TextInput
          label="City"
          required
          autoComplete="address-level2"
          maxLength={CARD_FORM_MAX.city}
          {...text('city')}
        />
        <NativeSelect
          label="State"
          required
          autoComplete="address-level1"
          ref={form.register('state')}
          value={values.state}
          error={errors.state}
          onChange={(event) => form.change('state', event.currentTarget.value)}
          onBlur={() => form.blur('state')}
          data={[
            { value: '', label: 'Select a state', disabled: true },
            ...US_STATES.map(([code, name]) => ({ value: code, label: name })),
          ]}
        />
        <TextInput
          label="Postal Code"
          required
          autoComplete="postal-code"
          inputMode="numeric"
          {...text('zip')}
        />
        <TextInput
          label="Country"
          description="Cards billed in the United States only"
          readOnly
          value="United States"
          autoComplete="country-name"
        />
      </SimpleGrid>
    </Stack>
  );
}
