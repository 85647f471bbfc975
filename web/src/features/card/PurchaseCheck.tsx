/**
 * "Will this be approved?" (decisions.md): an amount and a kind of merchant,
 * answered by GET /me/purchaseCheck with the rules the card's real-time
 * authorization applies, and the reason when not. Nothing is held.
 *
 * Reusable: a shop item passes its price, category and merchant name, and the
 * person only presses Check.
 */
import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import type { RouteOutput } from '@shared/api/routes';
import { formatCents, parseDollars } from '@shared/domain/money';
import { declineWithNextStep, MERCHANT_KINDS } from '@shared/domain/spendPolicy';
import { type FormEvent, useId, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { purchaseCheckMessages as text } from '../../content/consoleMessages';

type Answer = RouteOutput<'checkPurchase'>;

export interface PurchaseCheckProps {
  defaultAmountCents?: number;
  defaultCategory?: string;
  /** Named in a "no" answer (a shop item knows its merchant). */
  merchantName?: string;
  /** Heading level of the section title inside its surroundings. */
  headingOrder?: 2 | 3 | 4;
}

export function PurchaseCheck({
  defaultAmountCents,
  defaultCategory = '',
  merchantName,
  headingOrder = 3,
}: PurchaseCheckProps) {
  const titleId = useId();
  const [amount, setAmount] = useState(
    defaultAmountCents !== undefined ? (defaultAmountCents / 100).toFixed(2) : '',
  );
  const [category, setCategory] = useState(defaultCategory);
  const [errors, setErrors] = useState<{ amount?: string; category?: string }>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ result: Answer; amountCents: number } | { failed: string } | null>(
    null,
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A new check: the answer to the last one no longer applies, whatever this one finds.
    setAnswer(null);
    const amountCents = parseDollars(amount);
    const problems = {
      amount: amountCents === undefined || amountCents <= 0 ? text.amountInvalid : undefined,
      category: category ? undefined : text.kindRequired,
    };
    setErrors(problems);
    if (problems.amount || problems.category || amountCents === undefined) return;
    setBusy(true);
    try {
      const result = await call('checkPurchase', {
        amountCents,
        merchantCategory: category,
        ...(merchantName ? { merchantName } : {}),
      });
      setAnswer({ result, amountCents });
    } catch (error) {
      setAnswer({ failed: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby={titleId}>
      <Title order={headingOrder} size="h5" id={titleId}>
        {text.title}
      </Title>
      <Text size="sm" c="gray.7">
        {text.intro}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <TextInput
            label="Amount"
            leftSection={<span aria-hidden="true">$</span>}
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.amount}
            w={130}
          />
          <NativeSelect
            label="Kind of merchant"
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value)}
            error={errors.category}
            style={{ flex: '1 1 200px' }}
            data={[
              { value: '', label: 'Choose…', disabled: true },
              ...MERCHANT_KINDS.map((k) => ({ value: k.category, label: k.label })),
            ]}
          />
        </Group>
        <Button type="submit" mt="sm" loading={busy} variant="light">
          Check
        </Button>
      </form>
      <div role="status" aria-live="polite">
        {answer === null ? null : 'failed' in answer ? (
          <Alert color="red" variant="light" title="Could not check">
            <Text size="sm" c="dark">
              {answer.failed}
            </Text>
          </Alert>
        ) : answer.result.approved ? (
          <Alert color="green" variant="light" title={text.approved(formatCents(answer.amountCents))}>
            <Text size="sm" c="dark">
              {formatCents(answer.result.availableCents)} available on your card.
            </Text>
          </Alert>
        ) : (
          <Alert color="red" variant="light" title={text.declined}>
            <Text size="sm" c="dark">
              {declineWithNextStep(answer.result.reason ?? '')}
            </Text>
          </Alert>
        )}
      </div>
    </Stack>
  );
}
