/**
 * Shrinks a photo that is over the receipt limit in the browser (decisions.md
 * "Policies"): drawn smaller on a canvas and saved as JPEG at falling quality
 * until it fits. Returns undefined when the file cannot be decoded or still
 * does not fit; the caller then refuses it with the spec's message.
 */
import { RECEIPT_MAX_BYTES } from '@shared/domain/receiptFiles';

const MAX_SIDE = 1600;
const QUALITIES = [0.85, 0.7, 0.55, 0.4];

export async function shrinkImage(file: File): Promise<File | undefined> {
  if (file.type !== 'image/png' && file.type !== 'image/jpeg') return undefined;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return undefined;
  }
  try {
    for (const side of [MAX_SIDE, 1200, 900]) {
      const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
      const canvas = document.createElement('canvas');
      canvas.width = Math.max(1, Math.round(bitmap.width * scale));
      canvas.height = Math.max(1, Math.round(bitmap.height * scale));
      const context = canvas.getContext('2d');
      if (!context) return undefined;
      context.fillStyle = '#fff'; // a transparent PNG becomes a JPEG on white, not black
      context.fillRect(0, 0, canvas.width, canvas.height);
      context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      for (const quality of QUALITIES) {
        const blob = await new Promise<Blob | null>((resolve) =>
          canvas.toBlob(resolve, 'image/jpeg', quality),
        );
        if (blob && blob.size > 0 && blob.size <= RECEIPT_MAX_BYTES) {
          const name = file.name.replace(/\.[^.]*$/, '') || 'receipt';
          return new File([blob], `${name}.jpg`, { type: 'image/jpeg' });
        }
      }
    }
    return undefined;
  } finally {
    bitmap.close();
  }
}
