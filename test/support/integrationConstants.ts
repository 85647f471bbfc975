/** Fixed names the integration stand-ins share with the test files. */
export const TEST_WEB_ORIGIN = 'http://127.0.0.1:5999';
export const TEST_RECEIPTS_BUCKET = 'test-receipts';
