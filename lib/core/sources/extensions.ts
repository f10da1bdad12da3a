// The file extensions a v1 build takes as documents by default (Markdown and MDX). A module
// of its own so that readers of build_config (resolve, load) need not load the walk and its
// glob and gitignore libraries.

export const DEFAULT_EXTENSIONS: readonly string[] = ['markdown', 'md', 'mdx'];
