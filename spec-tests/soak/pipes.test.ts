// Issue 11 item 7: closed pipes and failing writes, short size.
import { shortSoak } from './short-soak.js';

shortSoak('pipes');
