/**
 * Structured logs, one line per event, written by Powertools for AWS Lambda's
 * Logger (JSON with level, timestamp, service, the X-Ray trace id and our
 * fields). Never log request bodies, tokens or passwords: callers pass only the
 * fields they mean to record, and every line still goes through the redaction
 * of ./redact.ts (secret-named fields, card numbers, keys, JWTs).
 *
 * Correlation: the wrappers (http.ts, webhook.ts, job.ts) create the logger
 * with the API Gateway request id (`requestId`, also `correlation_id`), the
 * Stripe event id (`eventId`) or the job and day; a handler's line carries them.
 *
 * Locally (`LOG_FORMAT=pretty`) a line is a readable `[lambda] ...` text.
 * LOG_LEVEL is read on every call, so tests can raise or lower it at run time.
 */
import { Logger as PowertoolsLogger } from '@aws-lambda-powertools/logger';
import { METRICS_SERVICE } from '@shared/observability';
import { redactText, redactValue } from './redact';

type Level = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(fields: Record<string, unknown>): Logger;
}

const threshold: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function minimumLevel(): number {
  const configured = (process.env.LOG_LEVEL ?? 'info').toLowerCase() as Level;
  return threshold[configured] ?? threshold.info;
}

let powertools: PowertoolsLogger | undefined;

/**
 * One Powertools logger per process, made on first use (after the environment
 * is set). It lets everything through: the level is checked per call above, so a
 * change of LOG_LEVEL applies at once. The correlation id is a field of each
 * line rather than Powertools' shared appended keys, because locally many
 * requests run at once in one process.
 */
function root(): PowertoolsLogger {
  powertools ??= new PowertoolsLogger({
    serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? METRICS_SERVICE,
    logLevel: 'DEBUG',
    jsonReplacerFn: redactValue,
  });
  return powertools;
}

function safe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value, redactValue);
  return typeof value === 'string' ? redactText(text) : text;
}

/** Locally, one readable line: `[lambda] info joinWaitlist: request handled status=201`. */
function prettyLine(level: Level, message: string, fields: Record<string, unknown>): string {
  const { operationId, jobId, stack, ...rest } = fields;
  const who = operationId ?? jobId ?? '';
  const pairs = Object.entries(rest)
    .filter(([k, v]) => v !== undefined && k !== 'requestId' && k !== 'correlation_id')
    .map(([k, v]) => `${k}=${safe(redactValue(k, v))}`)
    .join(' ');
  return `[lambda] ${level} ${who}: ${redactText(message)}${pairs ? ` ${pairs}` : ''}${stack ? `\n${redactText(String(stack))}` : ''}`;
}

/** Writes a line of the local, readable format (also used for metrics, see metrics.ts). */
export function writePretty(line: string, toStderr = false): void {
  if (toStderr) console.error(line);
  else console.log(line);
}

export function isPrettyFormat(): boolean {
  return process.env.LOG_FORMAT === 'pretty';
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (threshold[level] < minimumLevel()) return;
    const all = { ...base, ...fields };
    if (isPrettyFormat()) {
      writePretty(prettyLine(level, message, all), level === 'error' || level === 'warn');
      return;
    }
    // The message is our own text, but may quote an error's; the fields go through the replacer.
    root()[level](redactText(message), all);
  };
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger({ ...base, ...fields }),
  };
}

/** Error details safe to log: name, message and stack, never the object itself. */
export function errorFields(error: unknown): Record<string, unknown> {
  if (error instanceof Error)
    return { errorName: error.name, errorMessage: error.message, stack: error.stack };
  return { errorMessage: String(error) };
}
