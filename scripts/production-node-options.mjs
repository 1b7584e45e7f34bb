// NODE_OPTIONS as the Kubernetes Deployment sets it (heap limits), so that the benchmark and the soak
// run the service exactly as production does, from one source of truth.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export function productionNodeOptions(manifest = 'deploy/k8s/base/deployment.yaml') {
  for (const doc of parseAllDocuments(readFileSync(manifest, 'utf8'))) {
    const spec = doc.toJS();
    if (spec?.kind !== 'Deployment') continue;
    for (const container of spec.spec.template.spec.containers) {
      const option = container.env?.find((e) => e.name === 'NODE_OPTIONS');
      if (option) return option.value;
    }
  }
  throw new Error(`${manifest}: no Deployment container sets NODE_OPTIONS`);
}
