/**
 * Errors services throw. They carry facts, not HTTP or JSON-RPC details: each transport turns them
 * into its own answer (the HTTP envelope, an MCP `isError` result).
 */
export abstract class DomainError extends Error {
  override name = this.constructor.name;
}

/** No record of `kind` has this id (or slug: `key` says which the caller passed). */
export class NotFoundError extends DomainError {
  constructor(
    readonly kind: string,
    readonly id: string,
    /** Every valid id, when there are few enough to list. */
    readonly validIds: readonly string[],
    /** The ids closest to the one asked for, best first. */
    readonly closest: readonly string[] = [],
    /** What the identifier is called: guides and use cases are named by slug. */
    readonly key: 'id' | 'slug' = 'id',
  ) {
    super(`No ${kind} has the ${key} you asked for`);
  }
}

/** An argument a caller passed cannot be used; `message` says why and what would work. */
export class InvalidArgumentError extends DomainError {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(message);
  }
}
