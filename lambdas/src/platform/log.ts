/**
 * Structured JSON logs, one line per event. Never log request bodies, tokens or
 * passwords: callers pass only the fields they mean to record.
 */
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
  const configured = (process.env.LOG_LEVEL ?? 'info') as Level;
  return threshold[configured] ?? threshold.info;
}

/** Locally, one readable line: `[lambda] info joinWaitlist: request handled status=201`. */
function prettyLine(level: Level, message: string, fields: Record<string, unknown>): string {
  const { operationId, jobId, stack, ...rest } = fields;
  const who = operationId ?? jobId ?? '';
  const pairs = Object.entries(rest)
    .filter(([k, v]) => v !== undefined && k !== 'requestId')
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `[lambda] ${level} ${who}: ${message}${pairs ? ` ${pairs}` : ''}${stack ? `\n${String(stack)}` : ''}`;
}

export function createLogger(base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (threshold[level] < minimumLevel()) return;
    const line =
      process.env.LOG_FORMAT === 'pretty'
        ? prettyLine(level, message, { ...base, ...fields })
        : JSON.stringify({ level, time: new Date().toISOString(), message, ...base, ...fields });
    if (level === 'error' || level === 'warn') console.error(line);
    else console.log(line);
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
