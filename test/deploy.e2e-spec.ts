import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments, stringify } from 'yaml';
import { run } from './support/processes';
import { productionNodeArgs } from '../scripts/production-node-options.mjs';
import { EnvironmentVariables } from '../src/config/environment-variables';
import { loadConfig } from '../src/config/load-config';
import { startTestApp } from './support/test-app';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: any };

/** The schema check of scripts/validate-k8s.mjs (kubernetes-models, run as ESM outside jest). */
async function validate(args: string[], input?: string): Promise<{ code: number | null; objects: { id: string; valid: boolean; error?: string }[] }> {
  const { code, stdout } = input === undefined ? await run('node', ['scripts/validate-k8s.mjs', ...args]) : await runWithInput(input);
  return { code, objects: JSON.parse(stdout).objects };
}
function runWithInput(input: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', ['scripts/validate-k8s.mjs', '--stdin']);
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.on('close', (code: number | null) => resolve({ code, stdout }));
    child.stdin.end(input);
  });
}

/** `kubectl kustomize` (offline) of a kustomization, as objects. */
function render(path: string, ...flags: string[]): Obj[] {
  const out = execFileSync('kubectl', ['kustomize', ...flags, path], { encoding: 'utf8' });
  return parseAllDocuments(out).map((d) => d.toJSON() as Obj);
}

describe('Kubernetes manifests', () => {
  const base = render('deploy/k8s/base');
  const overlay = render('deploy/k8s/overlays/custom-dataset', '--load-restrictor', 'LoadRestrictionsNone');
  const find = (objs: Obj[], kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name)!;
  const deployment = find(base, 'Deployment', 'vpsapi');
  const container = deployment.spec.template.spec.containers[0];
  const settings = find(base, 'ConfigMap', 'vpsapi-settings').data as Record<string, string>;
  const env: Record<string, string> = { ...settings, ...Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value])) };

  it.each([
    ['base', ['deploy/k8s/base'], 9],
    ['custom-dataset overlay', ['deploy/k8s/overlays/custom-dataset', '--load-restrictor', 'LoadRestrictionsNone'], 10],
  ])('%s: every object is valid against the Kubernetes schemas', async (_name, args, count) => {
    const { code, objects } = await validate(args as string[]);
    expect(objects.filter((o) => !o.valid)).toEqual([]);
    expect(objects).toHaveLength(count as number);
    expect(code).toBe(0);
  }, 30_000);

  it('a broken object fails the schema check, so the check can fail', async () => {
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'three';
    const { code, objects } = await validate([], stringify(broken));
    expect(objects[0].valid).toBe(false);
    expect(code).toBe(1);
  }, 30_000);

  it('configures only settings the service knows, with values it accepts', () => {
    // NODE_OPTIONS (the heap caps), MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ (glibc's allocator) configure the runtime, not the service.
    const known = new Set([...Object.keys(new EnvironmentVariables()), 'NODE_OPTIONS', 'MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_']);
    expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
    expect(env.MALLOC_ARENA_MAX).toMatch(/^[1-9]\d*$/);
    expect(env.MALLOC_MMAP_THRESHOLD_).toMatch(/^[1-9]\d*$/);
    const config = loadConfig(env);
    expect(config).toMatchObject({ requireHttps: true, trustProxy: 1, rateLimit: { store: 'redis', requests: 600, windowSeconds: 60 } });
  });

  it('points the probes, ports and scrape annotations at what the service serves', async () => {
    const config = loadConfig(env);
    const ports = Object.fromEntries(container.ports.map((p: { name: string; containerPort: number }) => [p.name, p.containerPort]));
    expect(ports).toEqual({ http: config.port, metrics: config.metrics.port });
    expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe(String(config.metrics.port));
    // Both servers listen on the pod address, where the probes, the Service and Prometheus reach them.
    expect([config.host, config.metrics.host]).toEqual(['0.0.0.0', '0.0.0.0']);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const t = await startTestApp({ REQUIRE_HTTPS: 'true' });
    try {
      // The kubelet probes over plain HTTP without forwarded headers: the probes must not be redirected.
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) await t.http.get(probe.httpGet.path).expect(200);
    } finally {
      await t.close();
    }
    const service = find(base, 'Service', 'vpsapi');
    for (const p of service.spec.ports) expect(Object.keys(ports)).toContain(p.targetPort);
    const ingress = find(base, 'Ingress', 'vpsapi');
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'vpsapi', port: { name: 'http' } });
    expect(new URL(config.publicBaseUrl).host).toBe(ingress.spec.rules[0].host);
  }, 30_000);

  it('reaches Redis through the Service the base defines', () => {
    const url = new URL(env.REDIS_URL);
    const redis = find(base, 'Service', 'vpsapi-redis');
    expect(url.hostname).toBe(redis.metadata.name);
    expect(Number(url.port)).toBe(redis.spec.ports[0].port);
  });

  it('gives shutdown enough time: the grace period covers the delay and the drain', () => {
    const config = loadConfig(env);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(config.shutdown.delayMs + config.shutdown.timeoutMs + 2000);
  });

  it('caps the V8 heap well below the memory limit', () => {
    const heapMb = Number(/--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS)![1]);
    const limitMb = Number(/^(\d+)Mi$/.exec(container.resources.limits.memory)![1]);
    expect(heapMb).toBeLessThanOrEqual(limitMb * 0.6);
  });

  it('runs locked down, replicated and spread', () => {
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(container.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, runAsNonRoot: true, capabilities: { drop: ['ALL'] } });
    expect(container.resources.requests).toBeDefined();
    expect(container.resources.limits.memory).toBeDefined();
    expect(deployment.spec.template.spec.topologySpreadConstraints.length).toBeGreaterThan(0);
    expect(find(base, 'HorizontalPodAutoscaler', 'vpsapi').spec.minReplicas).toBeGreaterThanOrEqual(3);
    expect(find(base, 'PodDisruptionBudget', 'vpsapi').spec.minAvailable).toBeLessThan(deployment.spec.replicas);
  });

  it('mounts the custom dataset where DATA_DIR points, in the overlay', () => {
    const d = find(overlay, 'Deployment', 'vpsapi').spec.template.spec;
    const dataDir = d.containers[0].env.find((e: { name: string }) => e.name === 'DATA_DIR').value;
    expect(d.containers[0].volumeMounts[0].mountPath).toBe(dataDir);
    const cm = find(overlay, 'ConfigMap', 'vpsapi-dataset');
    expect(Object.keys(cm.data).sort()).toEqual(['authors.json', 'exchange-rates.json', 'meta.json', 'providers.json', 'use-cases.json', 'vat-rates.json']);
    expect(JSON.parse(cm.data['providers.json']).providers).toHaveLength(8);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it('builds in a build stage and runs only what that stage produced, production dependencies only, as a non-root user, HTTPS-only', () => {
    // One stage per FROM: a build stage with the compiler, then the runtime image copied from it.
    const stages = dockerfile.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM '));
    expect(stages.map((stage) => stage.split('\n')[0])).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim']);
    const [build, runtime] = stages;
    // The build stage installs everything, compiles, then drops the development dependencies.
    expect(build).toMatch(/^RUN npm ci$/m);
    expect(build).toMatch(/^RUN npm run build && npm prune --omit=dev$/m);
    // The runtime stage installs nothing itself: its node_modules and dist are the build stage's.
    expect(runtime).not.toMatch(/^RUN /m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/node_modules \.\/node_modules$/m);
    expect(runtime).toMatch(/^COPY --from=build \/app\/dist \.\/dist$/m);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(runtime).toMatch(/REQUIRE_HTTPS=true/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^CMD \["node", ("--[a-z-]+=\d+", )*"dist\/main.js"\]$/m);
    expect(readFileSync('.dockerignore', 'utf8')).toMatch(/^node_modules$/m);
  });

  it('starts node with flags this node accepts, the ones the benchmark and the soak read', () => {
    const flags = productionNodeArgs();
    expect(flags).toEqual(['--heap-growing-percent=10']);
    const run = spawnSync('node', [...flags, '-e', 'process.stdout.write("ok")'], { encoding: 'utf8' });
    expect([run.status, run.stdout, run.stderr]).toEqual([0, 'ok', '']);
    // node refuses a flag it does not know, so the check above can fail.
    expect(spawnSync('node', ['--heap-growing-percentage=10', '-e', '0'], { encoding: 'utf8' }).status).not.toBe(0);
  });
});
