// The resource URI of a unit of a cache (docs/mcp.md "Documents as resources"):
// `context://CACHE/PATH` for a whole document, `context://CACHE/PATH#SLUG` for one section
// of a section cache. Cache, path segments and slug are percent-encoded (UTF-8), so a path
// holding `#` or `%` stays unambiguous.

export const UNIT_URI_SCHEME = 'context://';

const encodePath = (path: string): string => path.split('/').map(encodeURIComponent).join('/');

/** The URI of a unit: `slug` null for a whole document (v0, v1 file caches), else a section. */
export function unitUri(cache: string, path: string, slug: string | null): string {
  return `${UNIT_URI_SCHEME}${encodeURIComponent(cache)}/${encodePath(path)}${slug === null ? '' : `#${encodeURIComponent(slug)}`}`;
}
