/**
 * Upload and view a receipt (spec §2, §5). Upload: a title (with merchant
 * suggestions) and one png, jpeg or gif of at most 150,000 bytes, dropped or
 * browsed; a photo over the limit is shrunk in the browser first and the person
 * is told; anything still breaking the rules is refused here with the spec's
 * message and never sent. The file goes straight to the receipts bucket with a
 * presigned POST; the server then checks its bytes before recording it.
 * The dialog also asks what the purchase was for (issue 26): its skill area
 * and media type, pre-filled from what the server inferred (marked
 * "Suggested") and saved with PUT /purchases/{id}/skill when the person
 * changed or confirmed them.
 */
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Group,
  Image,
  Loader,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { RECEIPT_MAX_BYTES, RECEIPT_TYPES, receiptFileProblem } from '@shared/domain/receiptFiles';
import type { PurchaseMedia, SkillArea } from '@shared/schemas/insights';
import type { CardAfterReceipt, PurchaseRow } from '@shared/schemas/purchases';
import { type DragEvent, useEffect, useId, useMemo, useState } from 'react';
import { call, errorMessage } from '../../api/client';
import { AppModal } from '../../components/AppModal';
import { savePurchaseSkill } from '../insights/insightsApi';
import { fileSizeText, formatDate, titleSuggestions } from './purchaseText';
import { shrinkImage } from './shrinkImage';
import { mediaOptions, type PurchaseSkill, SUGGESTED, skillOf, skillOptions } from './skillText';

/** The file as it will be sent, or why it will not. */
async function prepare(file: File): Promise<{ file: File; note?: string } | { problem: string }> {
  const problem = receiptFileProblem(file);
  if (!problem) return { file };
  if (file.size > RECEIPT_MAX_BYTES && (file.type === 'image/png' || file.type === 'image/jpeg')) {
    const smaller = await shrinkImage(file);
    if (smaller) {
      return {
        file: smaller,
        note: `'${file.name}' was ${fileSizeText(file.size)}, over the 150 KB limit, so we made it smaller here in your browser: ${fileSizeText(smaller.size)} as a JPEG.`,
      };
    }
  }
  return { problem };
}

async function sendReceipt(
  purchase: PurchaseRow,
  file: File,
  title: string,
): Promise<{ purchase: PurchaseRow; card: CardAfterReceipt }> {
  const post = await call('createReceiptUpload', {
    purchaseId: purchase.purchaseId,
    contentType: file.type,
    size: file.size,
    fileName: file.name,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
  form.append('file', file); // last: S3 ignores fields after the file
  const stored = await fetch(post.url, { method: 'POST', body: form });
  if (!stored.ok) throw new Error('The receipt could not be uploaded. Please try again.');
  const done = await call('confirmReceipt', {
    purchaseId: purchase.purchaseId,
    uploadId: post.uploadId,
    title,
    fileName: file.name,
  });
  return done;
}

export function UploadReceiptDialog({
  purchase,
  pastVendors,
  onClose,
  onUploaded,
}: {
  purchase: PurchaseRow | undefined;
  pastVendors: string[];
  onClose: () => void;
  /** `card`: what the receipt did to a card frozen for receipts (the server decides). */
  onUploaded: (row: PurchaseRow, card: CardAfterReceipt) => void;
}) {
  const [skill, setSkill] = useState<PurchaseSkill>(() => skillOf({}));
  const inputId = useId();
  const [title, setTitle] = useState('');
  const [file, setFile] = useState<File>();
  const [note, setNote] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [titleError, setTitleError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [focused, setFocused] = useState(false);

  useEffect(() => {
    if (!purchase) return;
    setTitle(purchase.title ?? '');
    setSkill(skillOf(purchase));
    setFile(undefined);
    setNote(undefined);
    setProblem(undefined);
    setTitleError(undefined);
  }, [purchase]);

  const suggestions = useMemo(() => titleSuggestions(title, pastVendors), [title, pastVendors]);

  async function choose(chosen: File | undefined) {
    setFile(undefined);
    setNote(undefined);
    setProblem(undefined);
    if (!chosen) return;
    const prepared = await prepare(chosen);
    if ('problem' in prepared) setProblem(prepared.problem);
    else {
      setFile(prepared.file);
      setNote(prepared.note);
    }
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    void choose(event.dataTransfer.files[0]);
  }

  async function submit() {
    if (!purchase) return;
    if (!title.trim()) setTitleError('Title is required');
    if (!file) setProblem((p) => p ?? 'Choose a receipt image.');
    if (!title.trim() || !file) return;
    setBusy(true);
    try {
      const stored = skillOf(purchase);
      // Saved when the person chose something, or kept what was only suggested (it becomes theirs).
      const chosen =
        skill.skillArea !== stored.skillArea ||
        skill.media !== stored.media ||
        (stored.skillSource === 'inferred' && skill.skillArea !== 'Uncategorised');
      if (chosen)
        await savePurchaseSkill(purchase.purchaseId, { skillArea: skill.skillArea, media: skill.media });
      const done = await sendReceipt(purchase, file, title.trim());
      const saved: PurchaseSkill = { ...skill, skillSource: 'employee' };
      onUploaded(chosen ? { ...done.purchase, ...saved } : done.purchase, done.card);
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AppModal
      opened={purchase !== undefined}
      onClose={() => (busy ? undefined : onClose())}
      title="Upload receipt"
      centered
    >
      {purchase ? (
        <Stack gap="md">
          <Text size="sm">
            {purchase.vendor}, {formatDate(purchase.date)}. Due by {formatDate(purchase.receipt.dueDate)}.
          </Text>
          <Autocomplete
            label="Title"
            description="What you bought, e.g. the book or course name, or the merchant."
            required
            data={suggestions}
            filter={({ options }) => options}
            value={title}
            onChange={(value) => {
              setTitle(value);
              setTitleError(undefined);
            }}
            error={titleError}
            maxLength={120}
          />
          <SkillFields purchase={purchase} skill={skill} onChange={setSkill} />
          <Box
            component="label"
            htmlFor={inputId}
            onDragOver={(event: DragEvent) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
            p="lg"
            style={{
              border: `2px dashed var(--mantine-color-${dragging ? 'blue-7' : 'gray-6'})`,
              borderRadius: 8,
              // The input itself is invisible, so the zone shows its keyboard focus.
              outline: focused ? '2px solid var(--mantine-color-blue-7)' : undefined,
              outlineOffset: 2,
              textAlign: 'center',
              cursor: 'pointer',
            }}
          >
            <Text fw={600}>Drag the receipt image here, or browse</Text>
            <Text size="sm" c="gray.7">
              PNG, JPEG or GIF, up to 150,000 bytes. Larger photos are made smaller here first.
            </Text>
            <input
              id={inputId}
              type="file"
              aria-label="Receipt image"
              accept={RECEIPT_TYPES.join(',')}
              style={{ position: 'absolute', width: 1, height: 1, opacity: 0 }}
              onFocus={() => setFocused(true)}
              onBlur={() => setFocused(false)}
              onChange={(event) => {
                void choose(event.currentTarget.files?.[0]);
                event.currentTarget.value = '';
              }}
            />
            {file ? (
              <Text size="sm" mt="xs">
                Chosen: {file.name} ({fileSizeText(file.size)})
              </Text>
            ) : null}
          </Box>
          {note ? (
            <Alert color="blue" role="status">
              {note}
            </Alert>
          ) : null}
          {problem ? (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={busy}>
              Upload
            </Button>
          </Group>
        </Stack>
      ) : null}
    </AppModal>
  );
}

/** Skill area and media type, each marked "Suggested" while it is the server's inference. */
function SkillFields({
  purchase,
  skill,
  onChange,
}: {
  purchase: PurchaseRow;
  skill: PurchaseSkill;
  onChange: (skill: PurchaseSkill) => void;
}) {
  const stored = skillOf(purchase);
  const suggested = stored.skillSource === 'inferred';
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      <NativeSelect
        label="Skill area"
        description={
          suggested && skill.skillArea === stored.skillArea
            ? `${SUGGESTED} from the item you opened`
            : undefined
        }
        data={skillOptions}
        value={skill.skillArea}
        onChange={(event) => onChange({ ...skill, skillArea: event.currentTarget.value as SkillArea })}
      />
      <NativeSelect
        label="Media type"
        description={suggested && skill.media === stored.media ? SUGGESTED : undefined}
        data={mediaOptions}
        value={skill.media}
        onChange={(event) => onChange({ ...skill, media: event.currentTarget.value as PurchaseMedia })}
      />
    </SimpleGrid>
  );
}

export function ViewReceiptDialog({
  purchase,
  onClose,
}: {
  purchase: PurchaseRow | undefined;
  onClose: () => void;
}) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setUrl(undefined);
    setError(undefined);
    if (!purchase) return;
    const abort = new AbortController();
    call('getReceiptUrl', { purchaseId: purchase.purchaseId }, { signal: abort.signal })
      .then((answer) => setUrl(answer.url))
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(e));
      });
    return () => abort.abort();
  }, [purchase]);
  const subject = purchase?.title ?? purchase?.vendor ?? '';
  return (
    <AppModal
      opened={purchase !== undefined}
      onClose={onClose}
      title={`Receipt: ${subject}`}
      centered
      size="lg"
    >
      {error ? <Alert color="red">{error}</Alert> : null}
      {!url && !error ? <Loader size="sm" role="status" aria-label="Loading the receipt" /> : null}
      {url ? <Image src={url} alt={`Receipt for ${subject}`} fit="contain" mah="70vh" /> : null}
    </AppModal>
  );
}
