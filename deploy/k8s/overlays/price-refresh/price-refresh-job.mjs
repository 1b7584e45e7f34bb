// The price-refresh CronJob's two steps (deploy/k8s/overlays/price-refresh, docs/operations.md "Refreshing
// prices"), each in a container of its own so that no process holds both kinds of secret:
//
//   --step=refresh  (init container: the provider tokens, no service-account token) copies the served dataset
//                   into a work directory, runs the refresher on it, checks the result with the service's
//                   validator (run without the tokens), and writes what the publish step needs beside it.
//   --step=publish  (main container: the service-account token, no provider token, no catalogue parsing)
//                   patches the changed dataset files into the dataset ConfigMap, which the replicas reload.
//
//   node price-refresh-job.mjs --step=refresh --served <dir> --work <dir> [--validator <validate-cli.js>] -- <refresher command...>
//   node price-refresh-job.mjs --step=publish --work <dir> --configmap <name> [--api-server <url>] [--service-account <dir>]
//
// Exit code of the Job: 0 = published, or nothing to publish; 2 = the refresher's plausibility gate refused
// (its review is printed; nothing published; the refresh step exits 2); 1 = any other failure (nothing
// published), a refresher killed by a signal, or a provider the refresher could not read (what it released
// from the others is published first, and the publish step exits 1).
//
// Node built-ins only: the image has node and its own dist/, and this file is mounted from a ConfigMap, so
// it can import nothing else. It talks to the Kubernetes API over HTTPS with the pod's service-account
// token, which may only get and patch the one dataset ConfigMap.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/**
 * The dataset files the ConfigMap serves, and the refresher's gate baseline (gate-baseline.json), which
 * the next run reads. Not changelog.json: the refresher releases into a copy without history, so the
 * changelog it writes holds only that release, and its entry points at a releases/<version>/ snapshot a
 * flat ConfigMap cannot hold (the next run's release would find it missing and refuse).
 */
const PUBLISHED_FILES = ['meta.json', 'providers.json', 'use-cases.json', 'authors.json', 'exchange-rates.json', 'vat-rates.json', 'gate-baseline.json'];
/** The API server refuses a ConfigMap whose keys and values add up to more than this. */
const CONFIGMAP_LIMIT_BYTES = 1024 * 1024;
const FIELD_MANAGER = 'vpsapi-price-refresh';
/** What a child that reads no catalogue and calls no API may see of the environment: no token of any kind. */
const PLAIN_ENV = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS'];

const log = (line) => console.log(`price-refresh: ${line}`);

class JobFailure extends Error {}

const { values: opts, positionals: refresher } = parseArgs({
  allowPositionals: true,
  options: {
    step: { type: 'string' },
    served: { type: 'string' },
    work: { type: 'string' },
    configmap: { type: 'string' },
    validator: { type: 'string' },
    'api-server': { type: 'string' },
    'service-account': { type: 'string', default: '/var/run/secrets/kubernetes.io/serviceaccount' },
  },
});

try {
  if (opts.step === 'refresh') {
    for (const name of ['served', 'work']) if (!opts[name]) throw new JobFailure(`--${name} is required`);
    if (refresher.length === 0) throw new JobFailure('the refresher command follows --');
    process.exitCode = await refreshStep();
  } else if (opts.step === 'publish') {
    for (const name of ['work', 'configmap']) if (!opts[name]) throw new JobFailure(`--${name} is required`);
    process.exitCode = await publishStep();
  } else {
    throw new JobFailure('--step must be refresh or publish');
  }
} catch (error) {
  log(error instanceof JobFailure ? `${error.message}; nothing published` : `failed: ${error?.stack ?? error}; nothing published`);
  process.exitCode = 1;
}

/** Where the refresh step leaves the publish step its outcome: the refresher's exit code and what changed. */
function outcomeFile() {
  return `${resolve(opts.work)}.outcome.json`;
}

function sha256(text) {
  return createHash('sha256').update(text).digest('hex');
}

async function refreshStep() {
  const work = resolve(opts.work);
  await rm(outcomeFile(), { force: true });
  const served = await readServed(opts.served);
  await prepareWorkDir(work, served);

  // The refresher reads the catalogues: it gets the provider tokens (this container's environment).
  const code = exitCodeOf('the refresher', await runCommand(refresher, process.env));
  if (code === 2) {
    await printReview(refresher);
    log('the plausibility gate refused this refresh (review above); nothing published. Accept the cases by running the Job by hand with --accept.');
    return 2;
  }
  if (code !== 0 && code !== 1) throw new JobFailure(`the refresher exited with ${code}`);

  const changed = new Map();
  for (const name of PUBLISHED_FILES) {
    const text = await readFile(join(work, name), 'utf8').catch(() => undefined);
    if (text !== undefined && text !== served.get(name)) changed.set(name, text);
  }
  if (code === 1 && changed.size === 0) throw new JobFailure('the refresher exited with 1');
  // What every replica will load once the ConfigMap is patched: the served files, the changed ones replaced.
  if (changed.size > 0 && opts.validator) await validate(`${work}.publish`, new Map([...served, ...changed]));
  const outcome = {
    refresherExitCode: code,
    changed: [...changed.keys()],
    // What this run started from, by content hash: the publish step patches only a ConfigMap that still holds it.
    startedFrom: Object.fromEntries(PUBLISHED_FILES.map((name) => [name, served.has(name) ? sha256(served.get(name)) : null])),
  };
  await writeFile(outcomeFile(), JSON.stringify(outcome));
  log(changed.size === 0 ? 'no change to publish' : `ready to publish ${outcome.changed.join(', ')}`);
  return 0;
}

async function publishStep() {
  const work = resolve(opts.work);
  const outcome = JSON.parse(await readFile(outcomeFile(), 'utf8').catch(() => {
    throw new JobFailure(`no outcome of the refresh step at ${outcomeFile()}`);
  }));
  if (outcome.changed.length === 0) {
    log('no change to publish');
    return 0;
  }
  const changed = new Map();
  for (const name of outcome.changed) changed.set(name, await readFile(join(work, name), 'utf8'));
  const code = outcome.refresherExitCode;

  const api = await kubernetesApi();
  const path = `/api/v1/namespaces/${encodeURIComponent(api.namespace)}/configmaps/${encodeURIComponent(opts.configmap)}`;
  const current = await api.call('GET', path);
  const data = current.data ?? {};
  // The mounted copy lags the API by up to a minute, and someone may have edited the ConfigMap: never overwrite what we did not start from.
  const moved = PUBLISHED_FILES.filter((name) => (data[name] === undefined ? null : sha256(data[name])) !== outcome.startedFrom[name]);
  if (moved.length > 0) throw new JobFailure(`ConfigMap ${opts.configmap} holds other ${moved.join(', ')} than the copy this run started from; the next run starts from the new one`);
  const size = sizeOf({ ...data, ...Object.fromEntries(changed) }) + sizeOf(current.binaryData ?? {});
  if (size > CONFIGMAP_LIMIT_BYTES) throw new JobFailure(`ConfigMap ${opts.configmap} would hold ${size} bytes, over the ${CONFIGMAP_LIMIT_BYTES}-byte limit: serve this dataset from an image instead`);

  // resourceVersion makes the patch conditional: the API answers 409 if the ConfigMap changed since the GET.
  const patch = { metadata: { resourceVersion: current.metadata.resourceVersion }, data: Object.fromEntries(changed) };
  await api.call('PATCH', `${path}?fieldManager=${FIELD_MANAGER}`, patch);
  log(`published ${[...changed.keys()].join(', ')} (dataset ${versionOf(new Map([...Object.entries(data), ...changed]))}, ${size} bytes) to ConfigMap ${api.namespace}/${opts.configmap}`);
  if (code === 1) log('the refresher could not read every provider (exit 1; its log names them): the others were published, and this Job fails so it is retried');
  return code;
}

/** The JSON files of the mounted ConfigMap (its `..data` links and directories are the kubelet's). */
async function readServed(dir) {
  const names = (await readdir(dir)).filter((name) => !name.startsWith('.') && name.endsWith('.json')).sort();
  const files = new Map();
  for (const name of names) files.set(name, await readFile(join(dir, name), 'utf8'));
  if (!files.has('meta.json')) throw new JobFailure(`${dir} holds no meta.json: is the dataset ConfigMap mounted there?`);
  return files;
}

/** A fresh work directory holding the served files: a dataset of JSON files only, which the refresher releases into. */
async function prepareWorkDir(work, served) {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  for (const [name, text] of served) await writeFile(join(work, name), text);
  log(`serving ${versionOf(served)}: copied ${[...served.keys()].join(', ')} into ${work}`);
}

/** Runs a command with this process's output and the given environment; resolves to how it ended. */
function runCommand([command, ...args], env) {
  log(`running ${[command, ...args].join(' ')}`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal }));
  });
}

/** The exit code of a child that exited; a child killed by a signal (the memory limit's SIGKILL, a timeout) is a failure that says so. */
function exitCodeOf(what, { code, signal }) {
  if (signal) throw new JobFailure(`${what} was killed by ${signal}${signal === 'SIGKILL' ? ' (the memory limit?)' : ''}, before it finished`);
  return code;
}

/** The environment without a token: only the names a plain child needs. */
function plainEnv() {
  return Object.fromEntries(PLAIN_ENV.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
}

/** Prints the review a gate refusal wrote, so the Job's log carries it after the pod's files are gone. */
async function printReview(args) {
  const i = args.indexOf('--review');
  // The refresher's default: its review in the temporary directory (TMPDIR, the work dir in the Job).
  const file = resolve(i >= 0 && args[i + 1] ? args[i + 1] : join(tmpdir(), 'vpsapi-refresh-review.md'));
  const review = await readFile(file, 'utf8').catch((error) => `(no review at ${file}: ${error.code ?? error.message})`);
  console.log(`----- ${file} -----\n${review.trimEnd()}\n----- end of review -----`);
}

/** Checks the files the replicas will load with the service's own validator (dist/cli/validate-dataset.js). */
async function validate(dir, files) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const [name, text] of files) await writeFile(join(dir, name), text);
  // The validator parses what the catalogues said: it runs with no token in its environment.
  const code = exitCodeOf('the validator', await runCommand([process.execPath, opts.validator, dir], plainEnv()));
  if (code !== 0) throw new JobFailure('the dataset as the ConfigMap would serve it is invalid (problems above)');
}

function versionOf(files) {
  try {
    return JSON.parse(files.get('meta.json')).version;
  } catch {
    return 'unknown version';
  }
}

function sizeOf(data) {
  return Object.entries(data).reduce((sum, [key, value]) => sum + Buffer.byteLength(key) + Buffer.byteLength(value), 0);
}

/** The in-cluster API: its address from the environment Kubernetes sets, the pod's token, CA and namespace. */
async function kubernetesApi() {
  const dir = opts['service-account'];
  const server = opts['api-server'] ?? `https://${process.env.KUBERNETES_SERVICE_HOST}:${process.env.KUBERNETES_SERVICE_PORT}`;
  if (!opts['api-server'] && !process.env.KUBERNETES_SERVICE_HOST) throw new JobFailure('not in a cluster: KUBERNETES_SERVICE_HOST is not set and no --api-server was given');
  const readAccount = (name) => readFile(join(dir, name), 'utf8').catch(() => undefined);
  const [token, namespace, ca] = await Promise.all([readAccount('token'), readAccount('namespace'), readAccount('ca.crt')]);
  if (!token || !namespace) throw new JobFailure(`no service-account token or namespace in ${dir}: the pod must mount its token`);
  const url = new URL(server);
  return {
    namespace: namespace.trim(),
    call: (method, path, body) =>
      new Promise((resolvePromise, reject) => {
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
        const req = request(
          {
            method,
            host: url.hostname,
            port: url.port,
            path,
            ca,
            timeout: 30_000,
            headers: {
              Authorization: `Bearer ${token.trim()}`,
              Accept: 'application/json',
              ...(payload ? { 'Content-Type': 'application/merge-patch+json', 'Content-Length': Buffer.byteLength(payload) } : {}),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (chunk) => (text += chunk));
            res.on('end', () => {
              if (res.statusCode >= 200 && res.statusCode < 300) return resolvePromise(JSON.parse(text));
              let message = text.slice(0, 300);
              try {
                message = JSON.parse(text).message ?? message;
              } catch {}
              const hint = res.statusCode === 409 ? ' (changed since it was read; the next run starts from the new one)' : res.statusCode === 403 ? ' (check the Role)' : '';
              reject(new JobFailure(`${method} ${path.split('?')[0]}: ${res.statusCode} ${message}${hint}`));
            });
          },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 30 s`)));
        req.on('error', reject);
        req.end(payload);
      }),
  };
}
