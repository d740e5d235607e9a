/** A refused domain operation. `code` says why; `message` is fit to show a person. */
export class DomainError extends Error {
  constructor(
    readonly code: "not_found" | "invalid_state" | "invalid_input" | "conflict",
    message: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

export const notFound = (what: string, id: string) => new DomainError("not_found", `No ${what} with id ${id}.`);
export const invalidState = (message: string) => new DomainError("invalid_state", message);
export const invalidInput = (message: string) => new DomainError("invalid_input", message);
