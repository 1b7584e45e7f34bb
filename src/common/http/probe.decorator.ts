import { SetMetadata } from '@nestjs/common';

export const PROBE = 'vpsapi:probe';

/**
 * Marks the orchestrator's probes: never redirected to HTTPS nor refused while starting, draining or
 * in maintenance (the probe reports that state itself), and, with `@SkipThrottle()`, never counted.
 */
export const Probe = () => SetMetadata(PROBE, true);
