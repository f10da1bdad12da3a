// Issue 11 item 5: hostile inputs (huge, many, deep, odd names, loops, FIFOs, ulimit, full disk), short size.
import { shortSoak } from './short-soak.js';

shortSoak('hostile');
