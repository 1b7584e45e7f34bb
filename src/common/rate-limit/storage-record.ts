import type { ThrottlerStorage } from '@nestjs/throttler';

/**
 * What a storage's `increment` resolves to, read from the `ThrottlerStorage` interface that
 * `@nestjs/throttler` exports from its root (the record interface itself is not exported there, and
 * nothing here imports from the package's `dist/` files).
 */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
