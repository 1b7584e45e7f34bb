// Renders a kustomization with `kubectl kustomize` (offline) and validates every object against the
// Kubernetes OpenAPI schemas with kubernetes-models, and the custom resources against their CRDs'
// schemas: the Prometheus Operator's (@kubernetes-models/prometheus-operator) and the Gateway API's
// (@kubernetes-models/gateway-api). Prints a JSON report; exits 1 on any invalid object, or on an
// object whose kind has no schema here.
// Usage: node scripts/validate-k8s.mjs <kustomization dir> [extra kubectl kustomize flags...]
//        node scripts/validate-k8s.mjs --stdin   (objects as YAML on standard input)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Namespace, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { CronJob } from 'kubernetes-models/batch/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { Role, RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { HTTPRoute } from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1';

const MODELS = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/CronJob': CronJob,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
  'monitoring.coreos.com/v1/PrometheusRule': PrometheusRule,
  'gateway.networking.k8s.io/v1/HTTPRoute': HTTPRoute,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
};

const [target, ...flags] = process.argv.slice(2);
const yaml = target === '--stdin' ? readFileSync(0, 'utf8') : execFileSync('kubectl', ['kustomize', ...flags, target], { encoding: 'utf8' });
const objects = parseAllDocuments(yaml).map((d) => d.toJSON());
const results = objects.map((obj) => {
  const id = `${obj.kind}/${obj.metadata?.name}`;
  const Model = MODELS[`${obj.apiVersion}/${obj.kind}`];
  if (!Model) return { id, valid: false, error: `no schema for ${obj.apiVersion} ${obj.kind}` };
  try {
    new Model(obj).validate();
    return { id, valid: true };
  } catch (error) {
    return { id, valid: false, error: String(error.message ?? error).slice(0, 500) };
  }
});
console.log(JSON.stringify({ objects: results }, null, 2));
if (results.some((r) => !r.valid)) process.exitCode = 1;
