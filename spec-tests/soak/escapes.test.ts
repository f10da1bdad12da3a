// Issue 11 item 6: escapes (every path argument of every tool; MCP roots; the CLI takes any root), short size.
import { shortSoak } from './short-soak.js';

shortSoak('escapes');
