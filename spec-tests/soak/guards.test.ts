// "Nothing lost, nothing leaked" item 6: the soak suite's guards (non-cache targets, symlinks
// out of the project over MCP, damaged packs under rebuild, hostile globs with cancellation), short size.
import { shortSoak } from './short-soak.js';

shortSoak('guards');
