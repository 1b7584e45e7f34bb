/** The Deployment container's runtime variables (NODE_OPTIONS, MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_). */
export function productionRuntimeEnv(manifest?: string): Record<string, string>;
/** NODE_OPTIONS as the Deployment sets it. */
export function productionNodeOptions(manifest?: string): string;
/** The node flags of the image's CMD. */
export function productionNodeArgs(dockerfile?: string): string[];
