// Issue 44 item 3: a slow resolve never delays pings (p99 judged), short size.
import { shortSoak } from './short-soak.js';

shortSoak('responsive');
