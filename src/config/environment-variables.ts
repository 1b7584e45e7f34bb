import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

/**
 * Every setting the service reads from its environment, with its default.
 * Validated once at start by `loadConfig`; nothing else reads `process.env`.
 */
export class EnvironmentVariables {
  /** TCP port of the public HTTP server. */
  @Type(() => Number)
  @IsInt({ message: 'must be an integer from 0 to 65535' })
  @Min(0, { message: 'must be an integer from 0 to 65535' })
  @Max(65535, { message: 'must be an integer from 0 to 65535' })
  PORT = 3000;

  /** Interface the HTTP server binds to. */
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  HOST = '0.0.0.0';

  /** Origin that absolute URLs in responses are built from (scheme, host, optional port and path prefix). */
  @IsUrl(
    { require_tld: false, require_protocol: true, protocols: ['http', 'https'] },
    { message: 'must be an absolute http(s) URL such as https://api.example.com' },
  )
  PUBLIC_BASE_URL = 'http://localhost:3000';

  /** Directory of the dataset to serve; defaults to the embedded `data/`. */
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  DATA_DIR: string | undefined = undefined;

  /** Requests each client may make per window. */
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number from 1 to 1000000' })
  @Min(1, { message: 'must be a whole number from 1 to 1000000' })
  @Max(1_000_000, { message: 'must be a whole number from 1 to 1000000' })
  RATE_LIMIT_REQUESTS = 600;

  /** Length of the rate-limit window in seconds. */
  @Type(() => Number)
  @IsInt({ message: 'must be a whole number of seconds from 1 to 86400' })
  @Min(1, { message: 'must be a whole number of seconds from 1 to 86400' })
  @Max(86_400, { message: 'must be a whole number of seconds from 1 to 86400' })
  RATE_LIMIT_WINDOW_SECONDS = 60;

}
