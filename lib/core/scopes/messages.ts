// Every text a scope answer can carry in its `error` field, worded exactly as seed 003
// (dotcontext's MCP contract) words them, so clients matching on them keep working.

export const TRAVERSAL_ERROR = 'Invalid scope: path traversal detected';

export function missingContextError(scope: string): string {
  return (
    `No .context.yaml found at scope "${scope}". This scope may be below the min_tokens ` +
    'threshold; use list_contexts to see eligible scopes.'
  );
}

export function corruptContextError(scope: string): string {
  return `Invalid or corrupt .context.yaml at scope "${scope}"`;
}

export function unsupportedVersionError(version: number): string {
  return `Unsupported schema version ${String(version)} (this tool supports version 1). Upgrade dotcontext to read this file.`;
}

export function scanFailedError(root: string): string {
  return `Failed to scan project at "${root}"`;
}

/** Not in the seed: a directory whose files could not be read while fingerprinting. */
export function unreadableScopeError(scope: string): string {
  return `Failed to read the files at scope "${scope}"`;
}

/** Not in the seed (`context scope init`): the file exists and is never overwritten. */
export function existingContextError(scope: string): string {
  return `A .context.yaml already exists at scope "${scope}": edit it, then run context rehash`;
}

/** Not in the seed (`context scope init`): nothing to describe at that path. */
export function noDirectoryError(scope: string): string {
  return `No directory at scope "${scope}"`;
}

/** Not in the seed (`context scope init`): the new file could not be written. */
export function writeFailedError(scope: string): string {
  return `Failed to write .context.yaml at scope "${scope}"`;
}

/** Not in the seed: a tool call whose arguments do not have the documented types. */
export function invalidArgumentError(name: string, expected: string): string {
  return `Invalid arguments: "${name}" must be ${expected}`;
}
