// What an OS failure was, said so that a person or an agent knows what to do next: the
// operation, the path (named by the face: as the user gave it on the CLI; by its role, never
// an absolute path, over MCP) and one next step chosen by the OS's code and the role of the
// folder the user named. The canonical error object never carries any of it: the CLI prints
// it as its stderr detail, the MCP server as the hint after a failed result.

/** What was being done when the OS refused. */
export type OsOperation = 'list' | 'read' | 'examine' | 'create' | 'write' | 'replace' | 'remove' | 'flush';

/** What the folder the user named is: its role picks the option the next step points at. */
export type PathRole = 'cache' | 'cache_root' | 'sources';

/** Where an OS failure happened, as the code that met it knows it. */
export interface OsWhere {
  readonly op: OsOperation;
  readonly role: PathRole;
  /** The folder the user named (the cache, the cache root, the sources folder), as the engine holds it. */
  readonly subject: string;
  /** The file or folder the OS refused, when it is not the subject (default: the error's own path). */
  readonly path?: string;
}

/** An OS failure: where, and the OS's code (ENOSPC, EACCES…). Plain data: it crosses threads. */
export interface OsCause extends OsWhere {
  readonly errno: string;
}

/** Who reads the sentence: a person at a shell (flags, OS codes) or an agent over MCP (arguments, no codes). */
export type OsFace = 'cli' | 'mcp';

const VERB: Readonly<Record<OsOperation, string>> = {
  list: 'list',
  read: 'read',
  examine: 'examine',
  create: 'create',
  write: 'write',
  replace: 'move into place',
  remove: 'remove',
  flush: 'flush to the disk',
};
const WRITES: ReadonlySet<OsOperation> = new Set(['create', 'write', 'replace', 'remove', 'flush']);

const NOUN: Readonly<Record<PathRole, string>> = { cache: 'the cache', cache_root: 'the cache root', sources: 'the sources folder' };
/** The CLI option that names a folder of each role. */
const FLAG: Readonly<Record<PathRole, string>> = { cache: '--cache', cache_root: '--root', sources: '--sources' };

type Kind = 'absent' | 'notdir' | 'denied' | 'space' | 'quota' | 'readonly' | 'files' | 'device' | 'loop' | 'long' | 'busy' | 'kind' | 'other';

const KIND_OF: Readonly<Record<string, Kind>> = {
  ENOENT: 'absent',
  ENOTDIR: 'notdir',
  EACCES: 'denied',
  EPERM: 'denied',
  ENOSPC: 'space',
  EDQUOT: 'quota',
  EROFS: 'readonly',
  EMFILE: 'files',
  ENFILE: 'files',
  EIO: 'device',
  ELOOP: 'loop',
  ENAMETOOLONG: 'long',
  EBUSY: 'busy',
  ETXTBSY: 'busy',
  EISDIR: 'kind',
  ENOTREG: 'kind',
  EAGAIN: 'kind',
};

const WHY: Readonly<Record<Kind, string>> = {
  absent: 'it does not exist',
  notdir: 'it is not a folder (or a folder on its way is not)',
  denied: 'permission denied',
  space: 'no space left on the device',
  quota: 'the disk quota is used up',
  readonly: 'the file system is read-only',
  files: 'too many files are open',
  device: 'the device reported an I/O error',
  loop: 'too many levels of symbolic links',
  long: 'the path is too long',
  busy: 'it is busy',
  kind: 'it is not a regular file or folder',
  other: 'the system refused',
};

/** What the OS's code means, in words, then the code: `no space left on the device (ENOSPC)`. */
export function osReason(errno: string): string {
  return `${WHY[KIND_OF[errno] ?? 'other']} (${errno})`;
}

/** The next step, for a person at a shell: `thing` is the subject as named, `flag` its option. */
function cliStep(kind: Kind, cause: OsCause, thing: string): string {
  const flag = FLAG[cause.role];
  const access = WRITES.has(cause.op) ? 'write' : 'read';
  switch (kind) {
    case 'absent':
    case 'notdir':
      if (cause.role === 'sources' && cause.path !== undefined) return 'a source changed during the build: run the command again';
      if (cause.role === 'cache_root' && kind === 'notdir') return `check the path given to ${flag}: it must name a folder`;
      if (cause.role === 'cache_root') return `check the path given to ${flag}, or build a cache under it first (context build --cache ${thing}/NAME)`;
      if (cause.role === 'sources') return `check the path given to ${flag}: it must name an existing folder`;
      return cause.path === undefined ? `check the path given to ${flag}` : `the cache is incomplete: rebuild it (context build --force --cache ${thing})`;
    case 'denied':
      return `give your user ${access} access to ${thing}, or choose another ${flag}`;
    case 'space':
    case 'quota':
      return `free space on the device holding ${thing}, or choose another ${flag}`;
    case 'readonly':
      return `choose a ${flag} on a writable file system`;
    case 'files':
      return 'raise the open-file limit (ulimit -n), then run the command again';
    case 'device':
      return `check the disk holding ${thing}, then run the command again`;
    case 'loop':
      return `remove the symbolic link loop under ${thing}`;
    case 'long':
      return `choose a shorter ${flag}`;
    case 'busy':
      return 'wait until it is free, then run the command again';
    case 'kind':
      return `remove what is there, or choose another ${flag}`;
    default:
      return `check ${thing}, then run the command again`;
  }
}

/** The next step, for an agent: arguments and the server's options, never a path of the machine. */
function mcpStep(kind: Kind, cause: OsCause): string {
  const role = cause.role;
  const holder = role === 'sources' ? 'the sources folder' : 'the cache root';
  const access = WRITES.has(cause.op) ? 'writable' : 'readable';
  switch (kind) {
    case 'absent':
    case 'notdir':
      if (role === 'sources' && cause.path !== undefined) return 'a source changed during the build: call again';
      if (role === 'cache_root' && kind === 'notdir') return 'start the server with a --cache-root that is a folder';
      if (role === 'cache_root') return 'build a cache with context.build first, or start the server with a --cache-root that exists';
      if (role === 'sources') return 'pass a sources folder that exists under the project root';
      return cause.path === undefined ? 'call context.list_caches for the names' : 'the cache is incomplete: rebuild it with context.build (force: true)';
    case 'denied':
      return `make ${holder} ${access} by the user the server runs as, then call again`;
    case 'space':
    case 'quota':
      return `free space on the disk holding ${holder}, then call again`;
    case 'readonly':
      return role === 'sources' ? 'this should not happen when reading: report it' : 'start the server with a --cache-root on a writable file system';
    case 'files':
      return 'raise the server\'s open-file limit (ulimit -n) and restart it, then call again';
    case 'device':
      return `check the disk holding ${holder}, then call again`;
    case 'loop':
      return `remove the symbolic link loop in ${holder}`;
    case 'long':
      return role === 'sources' ? 'pass a shorter sources path' : 'choose a shorter cache name';
    case 'busy':
      return 'call again in a moment';
    case 'kind':
      return role === 'sources' ? 'pass a folder that holds only regular files and folders' : 'remove what is there, or choose another cache name';
    default:
      return `check ${holder}, then call again`;
  }
}

/** How an agent is told which folder: by its role and the name it gave, never a path of the machine. */
function mcpThing(cause: OsCause, label: string | null): string {
  return label === null ? NOUN[cause.role] : `${NOUN[cause.role]} "${label}"`;
}

/**
 * The sentence for `cause`. CLI: `cannot list the cache root ./caches: it does not exist
 * (ENOENT); check the path given to --root, …` — `name` turns an engine path into the one
 * the user gave. MCP: the same without OS codes or paths; `name` gives the label of the
 * subject (the cache's name, the sources as given), or null.
 */
export function describeOsCause(cause: OsCause, face: OsFace, name: (path: string, role: PathRole) => string | null): string {
  const kind = KIND_OF[cause.errno] ?? 'other';
  if (face === 'mcp') {
    const thing = mcpThing(cause, name(cause.subject, cause.role));
    const inside = cause.path === undefined ? '' : ' (a file inside it)';
    return `Could not ${VERB[cause.op]} ${thing}${inside}: ${WHY[kind]}; ${mcpStep(kind, cause)}.`;
  }
  const thing = name(cause.subject, cause.role) ?? cause.subject;
  const file = cause.path === undefined ? '' : ` (${name(cause.path, cause.role) ?? cause.path})`;
  const why = `${WHY[kind]} (${cause.errno})`;
  return `cannot ${VERB[cause.op]} ${NOUN[cause.role]} ${thing}${file}: ${why}; ${cliStep(kind, cause, thing)}`;
}
