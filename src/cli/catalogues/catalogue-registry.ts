/**
 * Every provider catalogue the refresher reads, in the dataset's provider order. Contabo has no
 * catalogue API: its prices stay editorial (planLines[].source.method "editorial") with their true age.
 */
import type { CatalogueAdapter } from './catalogue.js';
import { DigitalOceanCatalogue } from './adapters/digitalocean.adapter.js';
import { HetznerCatalogue } from './adapters/hetzner.adapter.js';
import { HostingerCatalogue } from './adapters/hostinger.adapter.js';
import { LinodeCatalogue } from './adapters/linode.adapter.js';
import { OvhcloudCatalogue } from './adapters/ovhcloud.adapter.js';
import { UpcloudCatalogue } from './adapters/upcloud.adapter.js';
import { VultrCatalogue } from './adapters/vultr.adapter.js';

export function catalogueAdapters(): CatalogueAdapter[] {
  return [
    new HetznerCatalogue(),
    new DigitalOceanCatalogue(),
    new VultrCatalogue(),
    new LinodeCatalogue(),
    // The dataset's OVHcloud price list is the EUR one of the public catalogue's Italian subsidiary:
    // the one whose answers are recorded; the same ex-VAT euro prices as the other euro sites.
    new OvhcloudCatalogue({ subsidiary: 'IT' }),
    new HostingerCatalogue(),
    new UpcloudCatalogue(),
  ];
}
