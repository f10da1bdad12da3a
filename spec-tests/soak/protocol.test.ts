// Issue 11 item 2: protocol soak (fast-check lines from a fixed seed into one context mcp), short size.
import { shortSoak } from './short-soak.js';

shortSoak('protocol');
