/**
 * "Request funds from your manager" (issue 27): one form, opened from a shop
 * item (its name, partner and skill area fixed; the price filled in), from a
 * declined purchase (its merchant and amount filled in) or from the Requests
 * page (free-form). Mounted once in the signed-in frame; useRequests().open()
 * opens it.
 */
import { Button, Group, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { formatCents } from '@shared/domain/money';
import { categories } from '@shared/domain/skills';
import { type FormEvent, useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client';
import { AppModal } from '../../components/AppModal';
import { notify } from '../../stores/notifications';
import { dollarsText, type RequestPrefill, useRequests } from './requestStore';
import { requestText } from './requestText';

export function RequestDialog() {
  const prefill = useRequests((s) => s.prefill);
  const close = useRequests((s) => s.close);
  return (
    // Above the shop item's dialog it is opened from (Mantine's modals sit at 200).
    <AppModal
      opened={prefill !== undefined}
      onClose={close}
      title={requestText.dialogTitle}
      size="lg"
      zIndex={300}
    >
      {prefill ? <RequestForm prefill={prefill} onDone={close} /> : null}
    </AppModal>
  );
}

function RequestForm({ prefill, onDone }: { prefill: RequestPrefill; onDone: () => void }) {
  const fromItem = Boolean(prefill.itemId);
  const [title, setTitle] = useState(prefill.title ?? '');
  const [merchant, setMerchant] = useState(prefill.merchant ?? '');
  const [link, setLink] = useState(prefill.link ?? '');
  const [skillArea, setSkillArea] = useState<string | null>(prefill.skillArea ?? null);
  const [amount, setAmount] = useState(dollarsText(prefill.amountCents));
  const [why, setWhy] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState('');
  const [busy, setBusy] = useState(false);
  const markChanged = useRequests((s) => s.markChanged);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setFormError('');
    try {
      const area = (skillArea ?? undefined) as (typeof categories)[number] | undefined;
      const { request } = await call(
        'actOnRequest',
        fromItem
          ? { action: 'ask', itemId: prefill.itemId, amount, why }
          : { action: 'ask', title, merchant, link: link || undefined, skillArea: area, amount, why },
        { idempotencyKey: crypto.randomUUID() },
      );
      if (!request) throw new Error('The request was not stored.');
      markChanged();
      notify({
        kind: 'success',
        message:
          request.state === 'approved'
            ? requestText.autoApproved(request.approvedCents ?? request.amountCents)
            : requestText.sent,
      });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.fields) setErrors(error.fields as Record<string, string>);
      setFormError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{requestText.dialogIntro}</Text>
        {fromItem ? (
          <div>
            <Text fw={600}>{prefill.title}</Text>
            <Text size="sm" c="gray.7">
              {[prefill.merchant, prefill.skillArea].filter(Boolean).join(' · ')}
            </Text>
          </div>
        ) : (
          <>
            <TextInput
              label="What is it?"
              description="The course, book or event, as its seller names it"
              value={title}
              onChange={(e) => setTitle(e.currentTarget.value)}
              error={errors.title}
              maxLength={120}
              required
            />
            <TextInput
              label="Where is it sold?"
              value={merchant}
              onChange={(e) => setMerchant(e.currentTarget.value)}
              error={errors.merchant}
              maxLength={80}
              required
            />
            <TextInput
              label="Link (optional)"
              type="url"
              placeholder="https://"
              value={link}
              onChange={(e) => setLink(e.currentTarget.value)}
              error={errors.link}
              maxLength={500}
            />
            <Select
              label="Skill area"
              data={[...categories]}
              value={skillArea}
              onChange={setSkillArea}
              error={errors.skillArea}
              required
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
          </>
        )}
        <TextInput
          label="Amount (USD)"
          description={
            prefill.amountCents !== undefined ? `Filled in: ${formatCents(prefill.amountCents)}` : undefined
          }
          leftSection="$"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.currentTarget.value)}
          error={errors.amount}
          required
        />
        <Textarea
          label="Why does it help your learning?"
          value={why}
          onChange={(e) => setWhy(e.currentTarget.value)}
          error={errors.why}
          maxLength={500}
          autosize
          minRows={3}
          required
        />
        {formError && Object.keys(errors).length === 0 ? (
          <Text c="red.9" size="sm" role="alert">
            {formError}
          </Text>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Send request
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
