/**
 * Receipts: uploads (presigned, checked by content), viewing them, and the
 * daily receipt policy (reminders, freezing a card for overdue receipts and
 * lifting that freeze).
 */
export {
  onReceiptReceived,
  overdueReceipts,
  receiptCounts,
  receiptsOutstanding,
  runReceiptDeadlines,
} from './receiptPolicy';
export { confirmReceipt, createReceiptUpload, receiptUrl } from './receipts';
