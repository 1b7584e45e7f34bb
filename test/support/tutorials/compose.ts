import { basename } from 'node:path';
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node } from 'yaml';

/*
 * A compose file checked without Docker: the keys the Compose Specification defines (read from its
 * schema, compose-spec/compose-spec schema/compose-spec.json, June 2026), the values with a fixed set of
 * choices, and references between services, volumes and networks, as `docker compose config` refuses
 * them. A part of a compose file (part-of=, or a block of service keys) is checked as one service.
 */

const TOP = new Set(['version', 'name', 'include', 'services', 'models', 'networks', 'volumes', 'secrets', 'configs']);
const SERVICE = new Set(
  (
    'develop deploy annotations attach build blkio_config cap_add cap_drop cgroup cgroup_parent command configs container_name cpu_count ' +
    'cpu_percent cpu_shares cpu_quota cpu_period cpu_rt_period cpu_rt_runtime cpus cpuset credential_spec depends_on device_cgroup_rules ' +
    'devices dns dns_opt dns_search domainname entrypoint env_file label_file environment expose extends provider external_links extra_hosts ' +
    'gpus group_add healthcheck hostname image init ipc isolation labels links logging mac_address mem_limit mem_reservation mem_swappiness ' +
    'memswap_limit network_mode models networks oom_kill_disable oom_score_adj pid pids_limit platform ports post_start pre_stop privileged ' +
    'profiles pull_policy pull_refresh_after read_only restart runtime scale security_opt shm_size secrets sysctls stdin_open stop_grace_period ' +
    'stop_signal storage_opt tmpfs tty ulimits use_api_socket user uts userns_mode volumes volumes_from working_dir'
  ).split(' '),
);
const NESTED: Record<string, Set<string>> = {
  healthcheck: new Set(['disable', 'interval', 'retries', 'test', 'timeout', 'start_period', 'start_interval']),
  deploy: new Set([
    'mode',
    'endpoint_mode',
    'replicas',
    'labels',
    'rollback_config',
    'update_config',
    'resources',
    'restart_policy',
    'placement',
  ]),
  logging: new Set(['driver', 'options']),
};
const RESOURCES = new Set(['limits', 'reservations']);
const LIMITS = new Set(['cpus', 'memory', 'pids']);
const RESERVATIONS = new Set(['cpus', 'memory', 'generic_resources', 'devices']);
const NETWORK = new Set([
  'name',
  'driver',
  'driver_opts',
  'ipam',
  'external',
  'internal',
  'enable_ipv4',
  'enable_ipv6',
  'attachable',
  'labels',
]);
const VOLUME = new Set(['name', 'driver', 'driver_opts', 'external', 'labels']);
const RESTART = /^(no|always|unless-stopped|on-failure(:\d+)?)$/;
const CONDITIONS = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);

export interface ComposeProblem {
  message: string;
  /** 1-based line in the unit's content (0 when unknown). */
  line: number;
}

/** Whether a YAML unit is (part of) a compose file: by its file name or by a top-level services: map. */
export function looksLikeCompose(u: { path?: string; partOf?: string }, values: unknown[]): boolean {
  const name = basename(u.path ?? u.partOf ?? '');
  if (/^(docker-)?compose(\.[\w-]+)?\.ya?ml$/.test(name)) return true;
  const v = values[0];
  return (
    values.length === 1 &&
    !!v &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    'services' in v &&
    typeof (v as { services: unknown }).services === 'object'
  );
}

export function checkCompose(
  u: { content: string; partOf?: string; path?: string },
  _values?: unknown[],
): ComposeProblem[] {
  const problems: ComposeProblem[] = [];
  const doc = parseDocument(u.content, { keepSourceTokens: true });
  const lineOf = (node: Node | null | undefined) =>
    node?.range ? u.content.slice(0, node.range[0]).split('\n').length : 0;
  const root = doc.contents;
  if (!isMap(root)) return [{ message: 'a compose file is a mapping', line: 1 }];
  const topKeys = root.items.map((p) => String((p.key as { value?: unknown })?.value ?? p.key));
  // A part of a file whose keys are a service's (restart:, healthcheck:, deploy: ...) is one service.
  const isServicePart = !topKeys.some((k) => TOP.has(k)) && topKeys.every((k) => SERVICE.has(k) || k.startsWith('x-'));
  // An override file (compose.override.yml) adds to a service defined in the main file.
  const partial =
    !!u.partOf || isServicePart || !topKeys.includes('services') || /\.override\.ya?ml$/.test(u.path ?? '');

  const keysOf = (map: Node | null | undefined, allowed: Set<string>, what: string) => {
    if (!isMap(map)) return;
    for (const p of map.items) {
      const key = String((p.key as { value?: unknown })?.value);
      if (!allowed.has(key) && !key.startsWith('x-'))
        problems.push({ message: `${what} has no key "${key}"`, line: lineOf(p.key as Node) });
    }
  };
  const get = (map: Node | null | undefined, key: string): Node | undefined =>
    isMap(map)
      ? (map.items.find((p) => isPair(p) && (p.key as { value?: unknown })?.value === key)?.value as Node | undefined)
      : undefined;

  const services: Array<{ name: string; node: Node }> = [];
  if (isServicePart) services.push({ name: '(part of a service)', node: root });
  else {
    keysOf(root, TOP, 'a compose file');
    const s = get(root, 'services');
    if (isMap(s))
      for (const p of s.items)
        services.push({ name: String((p.key as { value?: unknown })?.value), node: p.value as Node });
  }
  const declared = (key: string) => {
    const m = get(root, key);
    return new Set(isMap(m) ? m.items.map((p) => String((p.key as { value?: unknown })?.value)) : []);
  };
  const volumes = declared('volumes');
  const networks = declared('networks');
  const serviceNames = new Set(services.map((s) => s.name));

  const vols = get(root, 'volumes');
  if (isMap(vols))
    for (const p of vols.items)
      keysOf(p.value as Node, VOLUME, `volume ${String((p.key as { value?: unknown })?.value)}`);
  const nets = get(root, 'networks');
  if (isMap(nets))
    for (const p of nets.items)
      keysOf(p.value as Node, NETWORK, `network ${String((p.key as { value?: unknown })?.value)}`);

  for (const { name, node } of services) {
    if (!isMap(node)) {
      problems.push({ message: `service ${name} is not a mapping`, line: lineOf(node) });
      continue;
    }
    keysOf(node, SERVICE, `service ${name}`);
    for (const [key, allowed] of Object.entries(NESTED)) keysOf(get(node, key), allowed, `${key} of ${name}`);
    const resources = get(get(node, 'deploy'), 'resources');
    keysOf(resources, RESOURCES, `deploy.resources of ${name}`);
    keysOf(get(resources, 'limits'), LIMITS, `deploy.resources.limits of ${name}`);
    keysOf(get(resources, 'reservations'), RESERVATIONS, `deploy.resources.reservations of ${name}`);
    const restart = get(node, 'restart');
    if (restart && !(isScalar(restart) && RESTART.test(String(restart.value))))
      problems.push({
        message: `restart of ${name} is "${String((restart as { value?: unknown }).value)}": no, always, on-failure[:N] or unless-stopped`,
        line: lineOf(restart),
      });
    if (
      get(node, 'image') === undefined &&
      get(node, 'build') === undefined &&
      get(node, 'extends') === undefined &&
      !partial
    )
      problems.push({ message: `service ${name} has neither image nor build`, line: lineOf(node) });
    const dependsOn = get(node, 'depends_on');
    const deps: Array<{ name: string; node: Node }> = [];
    if (isSeq(dependsOn))
      for (const d of dependsOn.items) deps.push({ name: String((d as { value?: unknown }).value), node: d as Node });
    if (isMap(dependsOn)) {
      for (const p of dependsOn.items) {
        deps.push({ name: String((p.key as { value?: unknown })?.value), node: p.key as Node });
        keysOf(
          p.value as Node,
          new Set(['condition', 'restart', 'required']),
          `depends_on.${String((p.key as { value?: unknown })?.value)} of ${name}`,
        );
        const cond = get(p.value as Node, 'condition');
        if (!cond)
          problems.push({
            message: `depends_on.${String((p.key as { value?: unknown })?.value)} of ${name} needs a condition`,
            line: lineOf(p.key as Node),
          });
        else if (!CONDITIONS.has(String((cond as { value?: unknown }).value)))
          problems.push({
            message: `condition "${String((cond as { value?: unknown }).value)}" of ${name}: one of ${[...CONDITIONS].join(', ')}`,
            line: lineOf(cond),
          });
      }
    }
    if (!partial)
      for (const d of deps)
        if (!serviceNames.has(d.name))
          problems.push({ message: `${name} depends on undefined service ${d.name}`, line: lineOf(d.node) });
    const sv = get(node, 'volumes');
    if (isSeq(sv) && !partial) {
      for (const v of sv.items) {
        const spec = isScalar(v)
          ? String(v.value)
          : isMap(v) && String((get(v, 'type') as { value?: unknown })?.value ?? 'volume') === 'volume'
            ? String((get(v, 'source') as { value?: unknown })?.value ?? '')
            : '';
        const source = spec.split(':')[0];
        if (spec.includes(':') && source && !/^[./~$]/.test(source) && !volumes.has(source))
          problems.push({
            message: `${name} mounts named volume "${source}", which the file does not declare under volumes:`,
            line: lineOf(v as Node),
          });
        else if (isMap(v) && source && !/^[./~$]/.test(source) && !volumes.has(source))
          problems.push({
            message: `${name} mounts named volume "${source}", which the file does not declare under volumes:`,
            line: lineOf(v as Node),
          });
      }
    }
    const sn = get(node, 'networks');
    if (!partial) {
      const used = isSeq(sn)
        ? sn.items.map((n) => ({ name: String((n as { value?: unknown }).value), node: n as Node }))
        : isMap(sn)
          ? sn.items.map((p) => ({ name: String((p.key as { value?: unknown })?.value), node: p.key as Node }))
          : [];
      for (const n of used)
        if (n.name !== 'default' && !networks.has(n.name))
          problems.push({
            message: `${name} joins network "${n.name}", which the file does not declare under networks:`,
            line: lineOf(n.node),
          });
    }
  }
  return problems;
}
