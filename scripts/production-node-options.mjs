// The runtime settings production runs the service with: the Kubernetes Deployment's environment
// (V8's heap limits in NODE_OPTIONS, glibc's MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_) and the
// node flags of the image's CMD, so that the benchmark and the soak run the service exactly as
// production does, from one source of truth each.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** The Deployment's environment variables that tune the runtime rather than configure the service. */
const RUNTIME_VARIABLES = ['NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_'];

/** Those variables, as the Deployment's container sets them (NODE_OPTIONS is required). */
export function productionRuntimeEnv(manifest = 'deploy/k8s/base/deployment.yaml') {
  for (const doc of parseAllDocuments(readFileSync(manifest, 'utf8'))) {
    const spec = doc.toJS();
    if (spec?.kind !== 'Deployment') continue;
    for (const container of spec.spec.template.spec.containers) {
      const env = Object.fromEntries(
        (container.env ?? []).filter((e) => RUNTIME_VARIABLES.includes(e.name)).map((e) => [e.name, String(e.value)]),
      );
      if (env.NODE_OPTIONS) return env;
    }
  }
  throw new Error(`${manifest}: no Deployment container sets NODE_OPTIONS`);
}

/** NODE_OPTIONS as the Deployment sets it. */
export function productionNodeOptions(manifest) {
  return productionRuntimeEnv(manifest).NODE_OPTIONS;
}

/**
 * The node flags of the image's CMD (`CMD ["node", ...flags, "dist/main.js"]`): the V8 flags node
 * takes on its command line only.
 */
export function productionNodeArgs(dockerfile = 'Dockerfile') {
  const cmd = readFileSync(dockerfile, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('CMD '))
    .pop();
  const argv = cmd && JSON.parse(cmd.slice(4));
  if (!Array.isArray(argv) || argv[0] !== 'node' || argv[argv.length - 1] !== 'dist/main.js')
    throw new Error(`${dockerfile}: the CMD is not ["node", ...flags, "dist/main.js"]`);
  return argv.slice(1, -1);
}

/** The major version of Node the image runs (`FROM node:<major>-...` in the Dockerfile, every stage alike). */
export function productionNodeMajor(dockerfile = 'Dockerfile') {
  const majors = new Set(
    readFileSync(dockerfile, 'utf8')
      .split('\n')
      .map((line) => /^FROM\s+node:(\d+)\b/.exec(line)?.[1])
      .filter(Boolean),
  );
  if (majors.size !== 1)
    throw new Error(
      `${dockerfile}: expected every stage FROM node:<one major>, found ${[...majors].join(', ') || 'none'}`,
    );
  return Number([...majors][0]);
}
