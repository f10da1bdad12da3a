// The `root` argument the citation tools share, declared once so their schemas cannot drift.

export const ROOT_PROPERTY = {
  type: 'string',
  description: 'Workspace root (relative to the server project root, or absolute)',
} as const;
