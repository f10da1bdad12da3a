export function scan(): string[] {
  return [];
}
