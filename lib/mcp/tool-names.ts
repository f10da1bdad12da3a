// Tool names as hosts see them. The seeds name tools with dots (`context.resolve`); several
// hosts accept only `^[a-zA-Z0-9_-]{1,64}$`, so each tool also answers to its underscore
// form (`context_resolve`), and `--tool-names underscore` advertises that form.

export type ToolNameStyle = 'dotted' | 'underscore';

export const TOOL_NAME_STYLES: readonly ToolNameStyle[] = ['dotted', 'underscore'];

/** The underscore alias of a dotted name: every "." becomes "_". */
export function underscoreName(name: string): string {
  return name.replaceAll('.', '_');
}

export function advertisedName(name: string, style: ToolNameStyle): string {
  return style === 'underscore' ? underscoreName(name) : name;
}
