// Checks lib/core/operations/build-stop.ts, the flag a background build and its caller share:
// a build making its staging directory is never ended at once ("not ended meanwhile: the
// caller would not know it yet"), the directory it records is what the caller reads back,
// and a path that does not fit is not recorded (the build then writes at the end).
import t from 'tap';
import { claimEnd, enterStaging, enterWriting, leaveStaging, newFlag, requestStop, stagedDir, stopRequested } from '../../../lib/core/operations/build-stop.js';

t.test('staging: not ended meanwhile; the recorded directory reads back', async (t) => {
  const flag = newFlag();
  t.equal(stagedDir(flag), null, 'nothing staged at first');
  t.notOk(stopRequested(flag));
  t.ok(enterStaging(flag), 'a build may start making its directory');
  requestStop(flag);
  t.notOk(claimEnd(flag), 'while it makes it, the caller may not end it at once');
  const dir = '/tmp/caches/.docs.tmp-1234-5678-AbCdEf/é 日本';
  t.ok(leaveStaging(flag, dir), 'recorded');
  t.equal(stagedDir(flag), dir, 'the caller reads the same path (UTF-8)');
  t.ok(claimEnd(flag), 'then it may be ended at once');
  t.notOk(enterStaging(flag), 'an ended build makes no directory');
  t.notOk(enterWriting(flag), 'nor writes');
});

t.test('a path that does not fit is not recorded; a build that writes is not ended at once', async (t) => {
  const flag = newFlag();
  t.ok(enterStaging(flag));
  t.notOk(leaveStaging(flag, `/${'x'.repeat(20_000)}`), 'too long: not recorded');
  t.equal(stagedDir(flag), null);
  t.ok(enterStaging(flag), 'the staging state was left all the same');
  t.notOk(leaveStaging(flag, null), 'no directory made: nothing recorded');
  t.ok(enterWriting(flag), 'the build writes');
  t.notOk(claimEnd(flag), 'and is then stopped only by its own next progress report');
  t.notOk(enterStaging(flag), 'no staging once writing');
});
