import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { run } from './support/processes';
import { productionNodeArgs } from '../scripts/production-node-options.mjs';
import { EnvironmentVariables } from '../src/config/environment-variables';
import { loadConfig } from '../src/config/load-config';
import { MetricsService } from '../src/observability/metrics.service';
import { startTestApp } from './support/test-app';

/** The price-refresh Job's one step, beside its overlay's kustomization (mounted from a ConfigMap generated there). */
const JOB_SCRIPT = 'deploy/k8s/overlays/price-refresh/price-refresh-job.mjs';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string }; [k: string]: any };

/** The schema check of scripts/validate-k8s.mjs (kubernetes-models, run as ESM outside jest). */
async function validate(
  args: string[],
  input?: string,
): Promise<{ code: number | null; objects: { id: string; valid: boolean; error?: string }[] }> {
  const { code, stdout } =
    input === undefined ? await run('node', ['scripts/validate-k8s.mjs', ...args]) : await runWithInput(input);
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
  const overlay = render('deploy/k8s/overlays/custom-dataset');
  const refresh = render('deploy/k8s/overlays/price-refresh');
  const find = (objs: Obj[], kind: string, name: string) =>
    objs.find((o) => o.kind === kind && o.metadata.name === name)!;
  const deployment = find(base, 'Deployment', 'vpsapi');
  const container = deployment.spec.template.spec.containers[0];
  const settings = find(base, 'ConfigMap', 'vpsapi-settings').data as Record<string, string>;
  const env: Record<string, string> = {
    ...settings,
    ...Object.fromEntries(container.env.map((e: { name: string; value: string }) => [e.name, e.value])),
  };

  // Rendered as GitOps tools render them: with kustomize's default load restrictor (files only from
  // inside each kustomization's directory).
  it.each([
    // Namespace, settings, Deployment, the public and the metrics Service, HPA, PDB, Ingress, Redis (two), two NetworkPolicies.
    ['base', ['deploy/k8s/base'], 12],
    ['custom-dataset overlay', ['deploy/k8s/overlays/custom-dataset'], 13],
    // custom-dataset's, the CronJob, its ServiceAccount, Role and RoleBinding, and the ConfigMap carrying its script.
    ['price-refresh overlay', ['deploy/k8s/overlays/price-refresh'], 18],
    // price-refresh's, less the Ingress, plus two HTTPRoutes, the ServiceMonitor and the PrometheusRule (their CRDs' schemas).
    ['production overlay', ['deploy/k8s/overlays/production'], 21],
  ])('%s: every object is valid against the Kubernetes schemas', async (_name, args, count) => {
    const { code, objects } = await validate(args as string[]);
    expect(objects.filter((o) => !o.valid)).toEqual([]);
    expect(objects).toHaveLength(count as number);
    expect(code).toBe(0);
  });

  it('a broken object fails the schema check, so the check can fail', async () => {
    const broken = structuredClone(deployment);
    broken.spec.replicas = 'three';
    const { code, objects } = await validate([], stringify(broken));
    expect(objects[0].valid).toBe(false);
    expect(code).toBe(1);
  });

  it('configures only settings the service knows, with values it accepts', () => {
    // NODE_OPTIONS (the heap caps), MALLOC_ARENA_MAX and MALLOC_MMAP_THRESHOLD_ (glibc's allocator) configure the runtime, not the service.
    const known = new Set([
      ...Object.keys(new EnvironmentVariables()),
      'NODE_OPTIONS',
      'MALLOC_ARENA_MAX',
      'MALLOC_MMAP_THRESHOLD_',
    ]);
    expect(Object.keys(env).filter((k) => !known.has(k))).toEqual([]);
    expect(env.MALLOC_ARENA_MAX).toMatch(/^[1-9]\d*$/);
    expect(env.MALLOC_MMAP_THRESHOLD_).toMatch(/^[1-9]\d*$/);
    const config = loadConfig(env);
    expect(config).toMatchObject({
      requireHttps: true,
      trustProxy: 1,
      rateLimit: { store: 'redis', requests: 600, windowSeconds: 60 },
    });
  });

  it('points the probes, ports and scrape annotations at what the service serves', async () => {
    const config = loadConfig(env);
    const ports = Object.fromEntries(
      container.ports.map((p: { name: string; containerPort: number }) => [p.name, p.containerPort]),
    );
    expect(ports).toEqual({ http: config.port, metrics: config.metrics.port });
    expect(deployment.spec.template.metadata.annotations['prometheus.io/port']).toBe(String(config.metrics.port));
    // Both servers listen on the pod address, where the probes, the Service and Prometheus reach them.
    expect([config.host, config.metrics.host]).toEqual(['0.0.0.0', '0.0.0.0']);
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    const t = await startTestApp({ REQUIRE_HTTPS: 'true' });
    try {
      // The kubelet probes over plain HTTP without forwarded headers: the probes must not be redirected.
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe])
        await t.http.get(probe.httpGet.path).expect(200);
    } finally {
      await t.close();
    }
    const service = find(base, 'Service', 'vpsapi');
    for (const p of service.spec.ports) expect(Object.keys(ports)).toContain(p.targetPort);
    const ingress = find(base, 'Ingress', 'vpsapi');
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'vpsapi', port: { name: 'http' } });
    expect(new URL(config.publicBaseUrl).host).toBe(ingress.spec.rules[0].host);
  });

  it('reaches Redis through the Service the base defines', () => {
    const url = new URL(env.REDIS_URL);
    const redis = find(base, 'Service', 'vpsapi-redis');
    expect(url.hostname).toBe(redis.metadata.name);
    expect(Number(url.port)).toBe(redis.spec.ports[0].port);
  });

  it('gives shutdown enough time: the grace period covers the delay and the drain', () => {
    const config = loadConfig(env);
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds * 1000).toBeGreaterThan(
      config.shutdown.delayMs + config.shutdown.timeoutMs + 2000,
    );
  });

  it('caps the V8 heap well below the memory limit', () => {
    const heapMb = Number(/--max-old-space-size=(\d+)/.exec(env.NODE_OPTIONS)![1]);
    const limitMb = Number(/^(\d+)Mi$/.exec(container.resources.limits.memory)![1]);
    expect(heapMb).toBeLessThanOrEqual(limitMb * 0.6);
  });

  it('runs locked down, replicated and spread', () => {
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
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
    expect(Object.keys(cm.data).sort()).toEqual([
      'authors.json',
      'exchange-rates.json',
      'meta.json',
      'providers.json',
      'use-cases.json',
      'vat-rates.json',
    ]);
    expect(JSON.parse(cm.data['providers.json']).providers).toHaveLength(8);
  });
});

describe('the deploy kit as a platform team reads it', () => {
  const base = render('deploy/k8s/base');
  const production = render('deploy/k8s/overlays/production');
  const kustomizations = [
    'deploy/k8s/base',
    'deploy/k8s/overlays/custom-dataset',
    'deploy/k8s/overlays/price-refresh',
    'deploy/k8s/overlays/production',
  ];
  const find = (objs: Obj[], kind: string, name: string) =>
    objs.find((o) => o.kind === kind && o.metadata.name === name)!;
  const podSpecs = (objs: Obj[]) =>
    objs.flatMap((o) =>
      o.kind === 'Deployment'
        ? [o.spec.template.spec]
        : o.kind === 'CronJob'
          ? [o.spec.jobTemplate.spec.template.spec]
          : [],
    );
  const secretRef = (
    env: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[],
    name: string,
  ) => env.find((e) => e.name === name)?.valueFrom?.secretKeyRef;

  it('runs the app image set by kustomize images: (the version of package.json) everywhere, and no placeholder image', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
    for (const path of kustomizations) {
      const images = podSpecs(render(path)).flatMap((spec) => spec.containers.map((c: { image: string }) => c.image));
      expect([path, images.filter((image) => /example/.test(image))]).toEqual([path, []]);
      expect([
        path,
        images.filter((image) => image.startsWith('vpsapi')).every((image) => image === `vpsapi:${version}`),
      ]).toEqual([path, true]);
    }
    // The manifests name the image only; the tag comes from kustomize, so `kustomize edit set image` moves every use at once.
    for (const file of ['deploy/k8s/base/deployment.yaml', 'deploy/k8s/overlays/price-refresh/cronjob.yaml'])
      expect(readFileSync(file, 'utf8')).toMatch(/^\s+image: vpsapi$/m);
  });

  it('lets only the ingress or Gateway namespaces reach the API port, only the monitoring namespace its metrics port, and keeps metrics off the public Service', () => {
    const policy = find(base, 'NetworkPolicy', 'vpsapi');
    expect(policy.spec.podSelector.matchLabels).toEqual(find(base, 'Deployment', 'vpsapi').spec.selector.matchLabels);
    expect(policy.spec.policyTypes).toEqual(['Ingress']);
    const byPort = Object.fromEntries(
      policy.spec.ingress.map((rule: any) => [rule.ports.map((p: { port: string }) => p.port).join(','), rule.from]),
    );
    expect(Object.keys(byPort).sort()).toEqual(['http', 'metrics']);
    // Namespace selectors only: no pod of the app's own namespace, no address block.
    expect(byPort.http).toEqual([
      {
        namespaceSelector: {
          matchExpressions: [
            {
              key: 'kubernetes.io/metadata.name',
              operator: 'In',
              values: ['ingress-nginx', 'envoy-gateway-system', 'nginx-gateway'],
            },
          ],
        },
      },
    ]);
    expect(byPort.metrics).toEqual([
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
    ]);
    // The Gateway the HTTPRoutes attach to runs in one of the namespaces the policy admits.
    for (const route of production.filter((o) => o.kind === 'HTTPRoute'))
      expect(byPort.http[0].namespaceSelector.matchExpressions[0].values).toContain(route.spec.parentRefs[0].namespace);
    const publicService = find(base, 'Service', 'vpsapi');
    expect(publicService.spec.ports.map((p: { name: string }) => p.name)).toEqual(['http']);
    const metrics = find(base, 'Service', 'vpsapi-metrics');
    expect(metrics.spec.ports).toEqual([{ name: 'metrics', port: 9464, targetPort: 'metrics' }]);
    expect(metrics.spec.selector).toEqual(publicService.spec.selector);
  });

  it('lets only the API pods reach Redis, which asks for the password of a Secret the API pods are given', () => {
    const policy = find(base, 'NetworkPolicy', 'vpsapi-redis');
    const redis = find(base, 'Deployment', 'vpsapi-redis');
    expect(policy.spec.podSelector.matchLabels).toEqual(redis.spec.selector.matchLabels);
    expect(policy.spec.ingress).toEqual([
      {
        from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'vpsapi' } } }],
        ports: [{ port: 'redis', protocol: 'TCP' }],
      },
    ]);
    const server = redis.spec.template.spec.containers[0];
    expect(server.args.slice(server.args.indexOf('--requirepass'))).toEqual(['--requirepass', '$(REDIS_PASSWORD)']);
    const secret = { name: 'vpsapi-redis', key: 'password' };
    expect(secretRef(server.env, 'REDIS_PASSWORD')).toEqual(secret);
    expect(secretRef(server.env, 'REDISCLI_AUTH')).toEqual(secret);
    const api = find(base, 'Deployment', 'vpsapi').spec.template.spec.containers[0];
    expect(secretRef(api.env, 'REDIS_PASSWORD')).toEqual(secret);
    // The repository holds no Secret: the operator creates it (docs/operations.md).
    for (const path of kustomizations) expect(render(path).filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  it('routes the public host to the API through the Gateway, redirects plain HTTP with a 301, and drops the Ingress', () => {
    const settings = find(base, 'ConfigMap', 'vpsapi-settings').data;
    const host = new URL(settings.PUBLIC_BASE_URL).host;
    const route = find(production, 'HTTPRoute', 'vpsapi');
    expect(route.spec.hostnames).toEqual([host]);
    expect(route.spec.rules[0].backendRefs).toEqual([
      { name: 'vpsapi', port: find(base, 'Service', 'vpsapi').spec.ports[0].port },
    ]);
    const redirect = find(production, 'HTTPRoute', 'vpsapi-https-redirect');
    expect(redirect.spec.hostnames).toEqual([host]);
    expect(redirect.spec.rules[0].filters).toEqual([
      { type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } },
    ]);
    expect(production.filter((o) => o.kind === 'Ingress')).toEqual([]);
    expect(settings.TRUST_PROXY).toBe('1');
  });

  it('scrapes the metrics Service and alerts on 5xx, 429s, readiness, price age and the refresh, reading only metrics the service exports', async () => {
    const monitor = find(production, 'ServiceMonitor', 'vpsapi');
    expect(find(base, 'Service', 'vpsapi-metrics').metadata.labels).toMatchObject(monitor.spec.selector.matchLabels);
    // ... and only it: the public Service lacks the component label.
    expect(find(base, 'Service', 'vpsapi').metadata.labels).not.toMatchObject(monitor.spec.selector.matchLabels);
    expect(monitor.spec.endpoints.map((e: { port: string }) => e.port)).toEqual(['metrics']);
    const rules = find(production, 'PrometheusRule', 'vpsapi').spec.groups.flatMap(
      (g: { rules: { alert: string; expr: string }[] }) => g.rules,
    );
    const exprOf = (alert: string) => rules.find((r: { alert: string }) => r.alert === alert)!.expr;
    expect(exprOf('VpsapiServerErrors')).toMatch(/status=~"5\.\."/);
    expect(exprOf('VpsapiManyRateLimited')).toMatch(/http_rate_limited_total/);
    expect(exprOf('VpsapiReplicasNotReady')).toMatch(/kube_deployment_status_replicas_ready/);
    expect(exprOf('VpsapiPricesStale')).toMatch(
      /dataset_price_age_days[\s\S]*time\(\) - max\(dataset_version_timestamp_seconds/,
    );
    expect(exprOf('VpsapiPriceRefreshFailing')).toMatch(/cronjob="vpsapi-price-refresh"/);
    // Every series of the service's own that a rule reads is in a real scrape (kube-state-metrics' and Prometheus's own are not ours).
    const t = await startTestApp({});
    try {
      const port = t.app.get(MetricsService).port;
      const exported = new Set(
        [...(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).matchAll(/^# TYPE (\S+)/gm)].map(
          (m) => m[1],
        ),
      );
      const read = new Set(
        rules.flatMap((r: { expr: string }) => [...r.expr.matchAll(/\b([a-z_]+)\{/g)].map((m) => m[1])),
      );
      const ours = [...read].filter((name) => !name.startsWith('kube_') && name !== 'up');
      expect(ours.sort()).toEqual([
        'dataset_price_age_days',
        'dataset_version_timestamp_seconds',
        'http_rate_limited_total',
        'http_requests_total',
      ]);
      expect(ours.filter((name) => !exported.has(name))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('the price-refresh CronJob', () => {
  const objects = render('deploy/k8s/overlays/price-refresh');
  const find = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;
  const cronJob = find('CronJob', 'vpsapi-price-refresh');
  const job = cronJob.spec.jobTemplate.spec;
  const pod = job.template.spec;
  // The refresh step (the refresher, with the provider tokens) and the publish step (with the API token).
  const container = pod.initContainers[0];
  const publish = pod.containers[0];
  const deployment = find('Deployment', 'vpsapi');
  const flag = (name: string) =>
    [...container.args, ...publish.args].find((a: string) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const refresher: string[] = container.args.slice(container.args.indexOf('--') + 1);

  it('runs once a day, never two at a time, and keeps a few finished runs to read', () => {
    // minute hour * * *: one fixed time a day.
    expect(cronJob.spec.schedule).toMatch(/^([0-5]?\d) ([01]?\d|2[0-3]) \* \* \*$/);
    expect(cronJob.spec.concurrencyPolicy).toBe('Forbid');
    expect(cronJob.spec.startingDeadlineSeconds).toBeGreaterThan(0);
    expect(cronJob.spec.successfulJobsHistoryLimit).toBeGreaterThan(0);
    expect(cronJob.spec.failedJobsHistoryLimit).toBeGreaterThan(0);
    expect(job.ttlSecondsAfterFinished).toBeGreaterThanOrEqual(24 * 3600);
    expect(job.activeDeadlineSeconds).toBeGreaterThan(0);
  });

  it('fails the Job on a gate refusal (exit 2) without a retry, and retries anything else at most once', () => {
    expect(job.backoffLimit).toBeLessThanOrEqual(1);
    expect(pod.restartPolicy).toBe('Never');
    expect(job.podFailurePolicy.rules[0]).toEqual({
      action: 'FailJob',
      onExitCodes: { containerName: container.name, operator: 'In', values: [2] },
    });
  });

  it('runs the refresher with --write on a copy of the served dataset in the work dir', () => {
    expect(refresher.slice(0, 2)).toEqual(['node', '/app/dist/cli/catalogues/refresh/refresh-cli.js']);
    // The image's /app/dist is this build's dist/.
    expect(existsSync('dist/cli/catalogues/refresh/refresh-cli.js')).toBe(true);
    expect(refresher).toContain('--write');
    expect(refresher).not.toContain('--accept');
    expect(refresher[refresher.indexOf('--data') + 1]).toBe(flag('work'));
    const mount = (name: string) => container.volumeMounts.find((m: { name: string }) => m.name === name);
    const volume = (name: string) => pod.volumes.find((v: { name: string }) => v.name === name);
    // The work dir is an emptyDir; the review file lands there too.
    const work = mount('work');
    expect(volume('work').emptyDir).toBeDefined();
    expect(flag('work')!.startsWith(`${work.mountPath}/`)).toBe(true);
    expect(refresher[refresher.indexOf('--review') + 1].startsWith(`${work.mountPath}/`)).toBe(true);
    // The root filesystem is read-only: the refresher stages its release in the work dir too.
    expect(container.env).toContainEqual({ name: 'TMPDIR', value: work.mountPath });
    // It starts from what the replicas serve: the dataset ConfigMap, mounted read-only where --served points.
    expect(mount('dataset')).toMatchObject({ mountPath: flag('served'), readOnly: true });
    expect(volume('dataset').configMap.name).toBe('vpsapi-dataset');
    // The job script is the one in scripts/, mounted from the ConfigMap the overlay generates from it.
    const script = find('ConfigMap', volume('job').configMap.name).data['price-refresh-job.mjs'];
    expect(script).toBe(readFileSync(JOB_SCRIPT, 'utf8'));
    expect(container.command).toEqual(['node', `${mount('job').mountPath}/price-refresh-job.mjs`]);
    // The validator it checks a dataset with is the service's own, at its compiled path.
    expect(flag('validator')).toBe('/app/dist/cli/validate-dataset.js');
    expect(existsSync('dist/cli/validate-dataset.js')).toBe(true);
  });

  it('runs the Deployment image, non-root on a read-only root filesystem, with resources set', () => {
    const app = deployment.spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: app.securityContext.runAsUser });
    for (const step of [container, publish]) {
      expect(step.image).toBe(app.containers[0].image);
      expect(step.securityContext).toEqual(app.containers[0].securityContext);
      expect(step.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
      });
      expect(step.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(step.resources.limits.memory).toBeDefined();
    }
    expect(publish.command).toEqual(container.command);
    expect(publish.args).toContain('--step=publish');
    expect(container.args).toContain('--step=refresh');
    expect(publish.volumeMounts.find((m: { name: string }) => m.name === 'work')).toMatchObject({
      mountPath: '/work',
      readOnly: true,
    });
  });

  it('keeps the tokens apart: the provider tokens only where catalogues are read, the API token only where nothing is parsed', () => {
    const apiTokenMounts = (c: { volumeMounts?: { name: string; mountPath: string }[] }) =>
      (c.volumeMounts ?? []).filter((m) =>
        pod.volumes.find(
          (v: { name: string; projected?: { sources: { serviceAccountToken?: unknown }[] } }) =>
            v.name === m.name && v.projected?.sources.some((source) => source.serviceAccountToken),
        ),
      );
    // No automounted token in every container: one projected token, mounted into publish alone.
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(apiTokenMounts(container)).toEqual([]);
    expect(apiTokenMounts(publish)).toEqual([
      expect.objectContaining({ mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }),
    ]);
    expect(publish.envFrom).toBeUndefined();
    expect(publish.env).toBeUndefined();
    // The publish step runs no refresher and no validator.
    expect(publish.args).not.toContain('--');
    expect(publish.args.some((a: string) => a.startsWith('--validator'))).toBe(false);
  });

  it('reads the provider tokens from an optional Secret that the repository does not hold', () => {
    expect(container.envFrom).toEqual([{ secretRef: { name: 'vpsapi-refresh-tokens', optional: true } }]);
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect((container.env ?? []).filter((e: { name: string }) => /TOKEN|PASSWORD|USERNAME/.test(e.name))).toEqual([]);
  });

  it('may get and patch the dataset ConfigMap and nothing else', () => {
    const account = find('ServiceAccount', pod.serviceAccountName);
    expect(account.automountServiceAccountToken).toBe(false);
    const bindings = objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding');
    const bound = bindings.filter((b) =>
      b.subjects.some(
        (s: { kind: string; name: string }) => s.kind === 'ServiceAccount' && s.name === account.metadata.name,
      ),
    );
    expect(bound.map((b) => [b.kind, b.metadata.namespace, b.subjects[0].namespace, b.roleRef])).toEqual([
      [
        'RoleBinding',
        cronJob.metadata.namespace,
        cronJob.metadata.namespace,
        { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'vpsapi-price-refresh' },
      ],
    ]);
    expect(objects.filter((o) => o.kind === 'ClusterRole' || o.kind === 'ClusterRoleBinding')).toEqual([]);
    expect(find('Role', 'vpsapi-price-refresh').rules).toEqual([
      { apiGroups: [''], resources: ['configmaps'], resourceNames: [flag('configmap')], verbs: ['get', 'patch'] },
    ]);
    // The ConfigMap it patches is the one the replicas mount.
    const served = find('Deployment', 'vpsapi').spec.template.spec.volumes.find(
      (v: { configMap?: unknown }) => v.configMap,
    );
    expect(flag('configmap')).toBe(served.configMap.name);
    expect(find('ConfigMap', served.configMap.name).metadata.namespace).toBe(
      find('Role', 'vpsapi-price-refresh').metadata.namespace,
    );
  });

  it('starts from a dataset ConfigMap well inside the 1 MiB limit', () => {
    const data = find('ConfigMap', 'vpsapi-dataset').data as Record<string, string>;
    const bytes = Object.entries(data).reduce((sum, [k, v]) => sum + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
    expect(bytes).toBeLessThan(0.5 * 1024 * 1024);
  });
});

/**
 * The Job's script (JOB_SCRIPT) run with the CronJob's own arguments (its paths mapped into a temporary
 * directory), a stand-in refresher and a stand-in Kubernetes API that records what it is asked.
 */
describe('the price-refresh Job step', () => {
  const objects = render('deploy/k8s/overlays/price-refresh');
  const pod = objects.find((o) => o.kind === 'CronJob')!.spec.jobTemplate.spec.template.spec;
  const [refreshStep, publishStep] = [pod.initContainers[0], pod.containers[0]];
  const DATASET_FILES = [
    'authors.json',
    'exchange-rates.json',
    'meta.json',
    'providers.json',
    'use-cases.json',
    'vat-rates.json',
  ];
  const TOKEN = 'test-service-account-token';

  // The refresher's interface: --data <dir> --write --review <file>; exit 0 written or no change, 2 refused, 1 failed.
  const FAKE_REFRESHER = `
    import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
    import { join, dirname } from 'node:path';
    const args = process.argv.slice(2);
    const data = args[args.indexOf('--data') + 1];
    const review = args[args.indexOf('--review') + 1];
    writeFileSync(join(dirname(data), 'refresher-saw.json'), JSON.stringify({ args, files: readdirSync(data).sort(), tmpdir: process.env.TMPDIR }));
    const dearest = (file) => file.providers[0].plans.reduce((a, b) => (b.price > a.price ? b : a));
    const providersFile = join(data, 'providers.json');
    const providers = JSON.parse(readFileSync(providersFile, 'utf8'));
    switch (process.env.FAKE_REFRESH) {
      case 'reprice':
      case 'partial': {
        // The dearest plan of the first provider, so its starting price stays what it was.
        const plan = dearest(providers);
        plan.price = Number((plan.price + 0.5).toFixed(2));
        writeFileSync(providersFile, JSON.stringify(providers, null, 2) + '\\n');
        // A release: the next day's version, and a changelog of this one release (which is not published).
        const metaFile = join(data, 'meta.json');
        const meta = JSON.parse(readFileSync(metaFile, 'utf8'));
        meta.version = new Date(Date.parse(meta.version) + 86400000).toISOString().slice(0, 10);
        writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\\n');
        writeFileSync(join(data, 'changelog.json'), JSON.stringify({ releases: [{ version: meta.version }] }));
        console.log('written');
        // One provider could not be read: the others' release is written, and the refresher exits 1.
        if (process.env.FAKE_REFRESH === 'partial') process.exit(1);
        break;
      }
      case 'huge':
        writeFileSync(providersFile, JSON.stringify(providers, null, 2) + ' '.repeat(1024 * 1024));
        break;
      case 'invalid':
        providers.providers[0].plans[0].price = 'cheap';
        writeFileSync(providersFile, JSON.stringify(providers));
        break;
      case 'refuse':
        writeFileSync(review, '# Refresh review\\n\\nhetzner cx22: price falls 60 %, over the 30 % gate\\n');
        console.log('refused: 1 case to review');
        process.exit(2);
      case 'fail':
        console.error('hetzner: 503 from the catalogue API');
        process.exit(1);
      case 'killed':
        // Half a release, then the memory limit's SIGKILL.
        writeFileSync(providersFile, JSON.stringify(providers).slice(0, 1000));
        process.kill(process.pid, 'SIGKILL');
        break;
      default:
        console.log('no change');
    }
  `;

  let root: string;
  let served: string;
  let api: Server;
  let requests: { method: string; url: string; auth?: string; type?: string; body?: any }[];
  let configMap: {
    metadata: { name: string; namespace: string; resourceVersion: string };
    data: Record<string, string>;
  };
  /** Makes the next PATCH meet a ConfigMap that changed after the GET. */
  let raceBeforePatch: boolean;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vpsapi-refresh-job-'));
    await writeFile(join(root, 'fake-refresher.mjs'), FAKE_REFRESHER);
    // The dataset's files copied once, so edits to data/ meanwhile change nothing here.
    const snapshot = join(root, 'data');
    await mkdir(snapshot);
    for (const name of DATASET_FILES) await cp(join('data', name), join(snapshot, name));
    // The service account's files, as Kubernetes mounts them.
    await mkdir(join(root, 'sa'));
    await writeFile(join(root, 'sa', 'token'), TOKEN);
    await writeFile(join(root, 'sa', 'namespace'), 'vpsapi');
    // The dataset ConfigMap as the kubelet mounts it: each key a link into ..data, itself a link to a timestamped directory.
    served = join(root, 'served');
    await mkdir(join(served, '..2026_11_26_04_17_00.1'), { recursive: true });
    for (const name of DATASET_FILES) await cp(join(snapshot, name), join(served, '..2026_11_26_04_17_00.1', name));
    await symlink('..2026_11_26_04_17_00.1', join(served, '..data'));
    for (const name of DATASET_FILES) await symlink(join('..data', name), join(served, name));

    api = createServer((req, res) => {
      let text = '';
      req.on('data', (d) => (text += d));
      req.on('end', () => {
        requests.push({
          method: req.method!,
          url: req.url!,
          auth: req.headers.authorization,
          type: req.headers['content-type'],
          body: text ? JSON.parse(text) : undefined,
        });
        const send = (status: number, body: unknown) =>
          res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
        if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'Unauthorized' });
        if (req.url!.split('?')[0] !== '/api/v1/namespaces/vpsapi/configmaps/vpsapi-dataset')
          return send(403, { message: 'forbidden' });
        if (req.method === 'GET') return send(200, configMap);
        if (req.method !== 'PATCH') return send(405, { message: 'method not allowed' });
        if (raceBeforePatch)
          configMap.metadata.resourceVersion = String(Number(configMap.metadata.resourceVersion) + 1);
        const patch = JSON.parse(text);
        if (patch.metadata?.resourceVersion && patch.metadata.resourceVersion !== configMap.metadata.resourceVersion)
          return send(409, { message: 'the object has been modified' });
        configMap = {
          ...configMap,
          metadata: { ...configMap.metadata, resourceVersion: String(Number(configMap.metadata.resourceVersion) + 1) },
          data: { ...configMap.data, ...patch.data },
        };
        send(200, configMap);
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => api.close(resolve));
    await rm(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    requests = [];
    raceBeforePatch = false;
    const data = Object.fromEntries(
      await Promise.all(DATASET_FILES.map(async (name) => [name, await readFile(join(served, name), 'utf8')])),
    );
    configMap = { metadata: { name: 'vpsapi-dataset', namespace: 'vpsapi', resourceVersion: '41' }, data };
  });

  /** Each step's command and environment as the CronJob gives them, paths mapped here, the publish step pointed at the stand-in API. */
  function stepCommand(step: { command: string[]; args: string[]; env?: { name: string; value: string }[] }): {
    args: string[];
    env: Record<string, string>;
  } {
    const map = (arg: string) =>
      arg
        .replace('/app/dist/cli/catalogues/refresh/refresh-cli.js', join(root, 'fake-refresher.mjs'))
        .replace('/opt/vpsapi-refresh/', 'deploy/k8s/overlays/price-refresh/')
        .replace('/etc/vpsapi/data', served)
        .replace('/app/dist/', 'dist/')
        .replace(/(^|=)\/work(?=\/|$)/, `$1${root}/work`);
    const args = [...step.command, ...step.args].map(map);
    const { port } = api.address() as AddressInfo;
    const apiFlags = [`--api-server=http://127.0.0.1:${port}`, `--service-account=${join(root, 'sa')}`];
    return {
      args: step === publishStep ? [...args, ...apiFlags] : args,
      env: Object.fromEntries((step.env ?? []).map((e) => [e.name, map(e.value)])),
    };
  }
  /** The pod: the refresh step, then, if it succeeded, the publish step; the Job's exit code is the last one's. */
  async function runJob(behaviour: string, extraEnv: Record<string, string> = {}) {
    let output = '';
    for (const step of [refreshStep, publishStep]) {
      const {
        args: [command, ...args],
        env,
      } = stepCommand(step);
      const result = await run(command, args, { ...env, FAKE_REFRESH: behaviour, ...extraEnv });
      output += result.stdout + result.stderr;
      if (result.code !== 0 || step === publishStep) return { ...result, output };
    }
    throw new Error('unreachable');
  }
  const patches = () => requests.filter((r) => r.method === 'PATCH');

  it('runs the refresher on a copy of the served files, and patches exactly the changed ones, conditionally, into the ConfigMap', async () => {
    const dearest = (file: { providers: { plans: { name: string; price: number }[] }[] }) =>
      file.providers[0].plans.reduce((a, b) => (b.price > a.price ? b : a));
    const before = dearest(JSON.parse(configMap.data['providers.json']));
    const { code, output } = await runJob('reprice');
    expect([code, output]).toEqual([0, expect.stringContaining('published meta.json, providers.json')]);
    const saw = JSON.parse(await readFile(join(root, 'work', 'refresher-saw.json'), 'utf8'));
    expect(saw).toEqual({
      args: ['--data', `${root}/work/data`, '--write', '--review', `${root}/work/refresh-review.md`],
      files: DATASET_FILES,
      tmpdir: `${root}/work`,
    });
    expect(requests.map((r) => [r.method, r.url, r.auth])).toEqual([
      ['GET', '/api/v1/namespaces/vpsapi/configmaps/vpsapi-dataset', `Bearer ${TOKEN}`],
      [
        'PATCH',
        '/api/v1/namespaces/vpsapi/configmaps/vpsapi-dataset?fieldManager=vpsapi-price-refresh',
        `Bearer ${TOKEN}`,
      ],
    ]);
    const [patch] = patches();
    expect(patch.type).toBe('application/merge-patch+json');
    expect(patch.body.metadata).toEqual({ resourceVersion: '41' });
    // Not changelog.json: its one release points at a snapshot the ConfigMap cannot hold.
    expect(Object.keys(patch.body.data)).toEqual(['meta.json', 'providers.json']);
    const after = JSON.parse(configMap.data['providers.json']).providers[0].plans.find(
      (p: { name: string }) => p.name === before.name,
    );
    expect(after.price).toBe(Number((before.price + 0.5).toFixed(2)));
  });

  it('publishes what was released when one provider could not be read, and still exits 1 so the Job is retried', async () => {
    const { code, output } = await runJob('partial');
    expect([code, output]).toEqual([1, expect.stringContaining('published meta.json, providers.json')]);
    expect(output).toContain('the refresher could not read every provider');
    expect(patches()).toHaveLength(1);
  });

  it('publishes nothing and exits 2 with the review in its log when the gate refuses', async () => {
    const { code, output } = await runJob('refuse');
    expect(code).toBe(2);
    expect(output).toContain('hetzner cx22: price falls 60 %, over the 30 % gate');
    expect(output).toContain('nothing published');
    expect(requests).toEqual([]);
  });

  it.each([
    ['the refresher finds no change', 'no change', 0, 'no change to publish', 0],
    ['the refresher fails', 'fail', 1, 'the refresher exited with 1', 0],
    // The service's validator names the problem: the price is not a number.
    ['the new dataset is invalid', 'invalid', 1, 'data.publish/providers.json: providers[0]', 0],
    ['the ConfigMap would pass 1 MiB', 'huge', 1, 'over the 1048576-byte limit', 1],
  ])('publishes nothing when %s', async (_when, behaviour, exitCode, message, gets) => {
    const { code, output } = await runJob(behaviour);
    expect([code, output]).toEqual([exitCode, expect.stringContaining(message)]);
    expect(requests.map((r) => r.method)).toEqual(Array(gets).fill('GET'));
  });

  it('publishes nothing when the ConfigMap changed after the Job copied it, or between its read and its patch', async () => {
    configMap.data['meta.json'] = configMap.data['meta.json'].replace(/"version": "[^"]+"/, '"version": "2099-01-01"');
    const moved = await runJob('reprice');
    expect([moved.code, moved.output]).toEqual([
      1,
      expect.stringContaining('holds other meta.json than the copy this run started from'),
    ]);
    expect(patches()).toEqual([]);

    requests = [];
    configMap.data['meta.json'] = await readFile(join(served, 'meta.json'), 'utf8');
    raceBeforePatch = true;
    const raced = await runJob('reprice');
    expect([raced.code, raced.output]).toEqual([1, expect.stringContaining('409')]);
    expect(patches()).toHaveLength(1);
    expect(configMap.data['providers.json'] === (await readFile(join(served, 'providers.json'), 'utf8'))).toBe(true);
  });

  it('publishes nothing when the refresher is killed by a signal, and says so', async () => {
    const { code, output } = await runJob('killed');
    expect([code, output]).toEqual([1, expect.stringContaining('the refresher was killed by SIGKILL')]);
    expect(output).not.toContain('exited with');
    expect(requests).toEqual([]);
  });

  it('gives the refresher the provider tokens, and the validator none', async () => {
    // A module every node process of the run loads first (NODE_OPTIONS reaches the children): it notes who saw a token.
    const witness = join(root, 'witness.mjs');
    const seen = join(root, 'seen-tokens.jsonl');
    await rm(seen, { force: true });
    await writeFile(
      witness,
      `import { appendFileSync } from 'node:fs';
       appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ script: process.argv[1], token: process.env.HCLOUD_TOKEN ?? null }) + '\\n');`,
    );
    const { code } = await runJob('reprice', { HCLOUD_TOKEN: 'provider-token', NODE_OPTIONS: `--import=${witness}` });
    expect(code).toBe(0);
    const lines = (await readFile(seen, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { script: string; token: string | null });
    const of = (end: string) => lines.filter((l) => l.script.endsWith(end)).map((l) => l.token);
    expect(of('fake-refresher.mjs')).toEqual(['provider-token']);
    expect(of('validate-dataset.js')).toEqual([null]);
  });

  it('refuses to run without its arguments', async () => {
    const { code, stdout } = await run('node', [JOB_SCRIPT, '--step=refresh', '--served', served]);
    expect([code, stdout]).toEqual([1, expect.stringContaining('--work is required')]);
    const unnamed = await run('node', [JOB_SCRIPT, '--served', served]);
    expect([unnamed.code, unnamed.stdout]).toEqual([1, expect.stringContaining('--step must be refresh or publish')]);
    expect(requests).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it('builds in a build stage and runs only what that stage produced, production dependencies only, as a non-root user, HTTPS-only', () => {
    // One stage per FROM: a build stage with the compiler, then the runtime image copied from it.
    const stages = dockerfile.split(/^(?=FROM )/m).filter((stage) => stage.startsWith('FROM '));
    // Both on the official Node image of the major the engines field names, pinned by digest.
    const major = /^\^(\d+)\./.exec(JSON.parse(readFileSync('package.json', 'utf8')).engines.node)![1];
    const image = new RegExp(`^FROM (node:${major}-bookworm-slim@sha256:[0-9a-f]{64})( AS build)?$`);
    const froms = stages.map((stage) => stage.split('\n')[0]);
    expect(froms.map((line) => image.test(line))).toEqual([true, true]);
    expect(froms[0]).toBe(`${froms[1]} AS build`);
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
