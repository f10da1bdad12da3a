// Issue 11 item 3: crash safety of builds (kill -9, live staging directories, concurrent builds), short size.
import { shortSoak } from './short-soak.js';

shortSoak('crash');
