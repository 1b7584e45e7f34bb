/**
 * Errors services throw. They carry facts, not HTTP or JSON-RPC details: each transport turns them
 * into its own answer (the HTTP envelope, an MCP `isError` result).
 */
export abstract class DomainError extends Error {
  override name = this.constructor.name;
}

/** No record of `kind` has this id; `validIds` lists the ones that exist. */
export class NotFoundError extends DomainError {
  constructor(
    readonly kind: string,
    readonly id: string,
    readonly validIds: readonly string[],
  ) {
    super(`No ${kind} has the id you asked for`);
  }
}
