export function startCluster(options?: { instances?: number; env?: Record<string, string>; nodeArgs?: string[]; dataDir?: string; quiet?: boolean }): Promise<{
  lbUrl: string;
  redisPort: number;
  nodes: { port: number; url: string; metricsPort: number; metricsUrl: string; child: import('node:child_process').ChildProcess; exited: Promise<{ code: number | null; signal: string | null }>; /** The last stderr of a quiet instance. */ stderrTail: string }[];
  restart(i: number): Promise<{ code: number | null; signal: string | null }>;
  kill(i: number): Promise<{ code: number | null; signal: string | null }>;
  start(i: number): Promise<unknown>;
  reloadAll(): void;
  stop(): Promise<void>;
}>;
export function freePort(): Promise<number>;
export function ensurePackages(packages: [string, string][]): void;
