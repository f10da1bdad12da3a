// Issue 11 item 4: serve while rebuilding (every answer from the old or the new cache), short size.
import { shortSoak } from './short-soak.js';

shortSoak('serve');
