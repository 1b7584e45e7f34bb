import { ApiSchema } from '@nestjs/swagger';
import { Provider } from '../../dataset/dto/provider.dto.js';
import { PriceAgeSummary } from '../../plans/dto/price-age-summary.dto.js';

/**
 * A provider as the JSON API serves it: the dataset's record with the contract's derived fields, and
 * how old its plan prices are. Published under the contract's schema name, `Provider`.
 */
@ApiSchema({ name: 'Provider' })
export class ServedProvider extends Provider {
  /** How old this provider's plan prices are: oldest and newest `observedAt`, and how many are stale (`staleAfterDays` in the list). */
  priceAge: PriceAgeSummary;
}
