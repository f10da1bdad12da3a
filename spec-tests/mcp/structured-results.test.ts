// Checks issue 12 item 1 "Structured results": every tool declares an outputSchema (JSON
// Schema of its JSON answer, success and error shapes) and, for clients on 2025-06-18 or
// later, returns structuredContent holding the same value as its text; "each
// structuredContent validates against its outputSchema in a test"; "the older versions'
// transcripts are unchanged". Every structured result recorded in conformance/ is validated,
// with Ajv (the validator the official SDK client uses) in strict mode, under both JSON
// Schema dialects a host may assume (draft-07 and 2020-12).
import t from 'tap';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compareBytes, parseJson } from '../../lib/json.js';
import { McpSession } from '../../lib/mcp/session.js';
import type { Tool } from '../../lib/mcp/tool.js';
import { underscoreName } from '../../lib/mcp/tool-names.js';
import { TOOLS } from '../../lib/mcp/tools/index.js';
import { REPO } from './spawn-server.js';

const CONFORMANCE = join(REPO, 'conformance');

function validatorsFor(ajv: { compile(schema: object): ValidateFunction }): Map<string, ValidateFunction> {
  return new Map(TOOLS.map((tool) => [tool.name, ajv.compile(tool.outputSchema)]));
}
// strict: unknown keywords, ignored types and "required" keys without a property all throw.
// allowUnionTypes: `type: ["string","null"]` is standard JSON Schema; strict mode only asks to opt in.
const draft07 = validatorsFor(new Ajv({ strict: true, strictRequired: true, allowUnionTypes: true, allErrors: true }));
const draft2020 = validatorsFor(new Ajv2020({ strict: true, strictRequired: true, allowUnionTypes: true, allErrors: true }));

function toolNamed(name: string): Tool | undefined {
  return TOOLS.find((tool) => tool.name === name || underscoreName(tool.name) === name);
}

/** Which of the schema's oneOf alternatives `value` matches (index), or -1. */
function branchOf(tool: Tool, value: unknown): number {
  const shapes = tool.outputSchema['oneOf'] as object[];
  const ajv = new Ajv({ strict: false });
  return shapes.findIndex((shape) => ajv.validate(shape, value));
}

interface Recorded {
  readonly where: string;
  readonly tool: Tool;
  readonly text: string;
  readonly isError: boolean;
  readonly structured: unknown;
}

/** Every tools/call result in the .out.jsonl files under conformance/, with the tool it called. */
function recordedResults(): { structured: Recorded[]; plain: number } {
  const structured: Recorded[] = [];
  let plain = 0;
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => compareBytes(a.name, b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      if (!entry.name.endsWith('.out.jsonl')) continue;
      const calls = new Map<unknown, string>();
      for (const line of readFileSync(path.replace(/\.out\.jsonl$/, '.in.jsonl'), 'utf8').split('\n')) {
        let m: unknown;
        try {
          m = parseJson(line);
        } catch {
          continue; // deliberately broken input lines
        }
        const msg = m as { id?: unknown; method?: unknown; params?: { name?: unknown } } | null;
        if (msg?.method === 'tools/call' && typeof msg.params?.name === 'string') calls.set(msg.id, msg.params.name);
      }
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        if (!line.startsWith('{')) continue;
        const reply = parseJson(line) as { id?: unknown; result?: { content?: { text: string }[]; isError?: boolean; structuredContent?: unknown } };
        const name = calls.get(reply.id);
        const tool = name === undefined ? undefined : toolNamed(name);
        const result = reply.result;
        if (tool === undefined || result?.content === undefined) continue;
        if (!('structuredContent' in result)) {
          plain++;
          continue;
        }
        structured.push({
          where: `${path.slice(CONFORMANCE.length + 1)} id ${String(reply.id)}`,
          tool,
          text: result.content[0]?.text ?? '',
          isError: result.isError === true,
          structured: result.structuredContent,
        });
      }
    }
  };
  walk(CONFORMANCE);
  return { structured, plain };
}

const recorded = recordedResults();

t.test('every tool has a title, annotations, and an outputSchema both dialects compile', async (t) => {
  for (const tool of TOOLS) {
    t.match(tool.title, /^[A-Z][^.]*[^.\s]$/, `${tool.name}: a short human title`);
    if (tool.name === 'context.build') {
      // The one tool that writes: with force it replaces a cache, and created_at changes.
      t.same(tool.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }, `${tool.name}: writes`);
    } else {
      t.same(tool.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false }, `${tool.name}: reads only`);
    }
    t.equal(tool.outputSchema.type, 'object', `${tool.name}: MCP requires type object at the root`);
    t.ok(draft07.get(tool.name) !== undefined && draft2020.get(tool.name) !== undefined, `${tool.name}: compiles strictly`);
  }
});

t.test('every structuredContent recorded in the transcripts validates against its outputSchema', async (t) => {
  t.ok(recorded.structured.length >= 150, `${recorded.structured.length} structured results recorded`);
  const seen = new Map<string, { ok: number; error: number; branches: Set<number> }>();
  for (const r of recorded.structured) {
    // The one text that is not JSON, context.resolve's Markdown answer (format "markdown",
    // issue 43), is carried as {"markdown": TEXT}; every other structuredContent is the text parsed.
    const markdown = r.tool.name === 'context.resolve' && !r.text.startsWith('{');
    if (markdown) t.same(r.structured, { markdown: r.text }, `${r.where}: a Markdown answer: structuredContent is {"markdown": TEXT}`);
    else t.same(r.structured, parseJson(r.text), `${r.where}: structuredContent is the text's JSON value`);
    for (const [dialect, validators] of [['draft-07', draft07], ['2020-12', draft2020]] as const) {
      const validate = validators.get(r.tool.name);
      const valid = validate?.(r.structured) === true;
      t.ok(valid, `${r.where}: ${r.tool.name} result valid (${dialect})`, { errors: validate?.errors });
    }
    const s = seen.get(r.tool.name) ?? { ok: 0, error: 0, branches: new Set<number>() };
    if (r.isError) s.error++;
    else s.ok++;
    s.branches.add(branchOf(r.tool, r.structured));
    seen.set(r.tool.name, s);
  }
  for (const tool of TOOLS) {
    const s = seen.get(tool.name);
    t.ok((s?.ok ?? 0) > 0 && (s?.error ?? 0) > 0, `${tool.name}: successes and errors both validated`);
    // Every shape but the engine error object (last; internal failures only for the
    // citation and scope tools, checked in-process below) is met in a transcript.
    const shapes = (tool.outputSchema['oneOf'] as object[]).length;
    for (let i = 0; i < shapes - 1; i++) t.ok(s?.branches.has(i), `${tool.name}: shape ${i} occurs in a transcript`);
  }
});

t.test('2024-11-05 and 2025-03-26 results carry no structuredContent', async (t) => {
  t.ok(recorded.plain > 0, `${recorded.plain} unstructured results recorded`);
  for (const v of ['2024-11-05', '2025-03-26']) {
    const out = readFileSync(join(CONFORMANCE, 'mcp', `tools-${v}.out.jsonl`), 'utf8');
    t.notMatch(out, /structuredContent|outputSchema|annotations|"title"/, `tools-${v}: the pre-2025-06-18 shape`);
  }
});

t.test('the 2025-06-18 and 2025-11-25 transcripts are the 2025-03-26 one plus the additions', async (t) => {
  const lines = (v: string): string[] => readFileSync(join(CONFORMANCE, 'mcp', `tools-${v}.out.jsonl`), 'utf8').split('\n');
  const older = lines('2025-03-26');
  for (const v of ['2025-06-18', '2025-11-25']) {
    const newer = lines(v);
    t.equal(newer.length, older.length, `${v}: one reply per request`);
    for (const [i, line] of newer.entries()) {
      if (line === '') continue;
      const value = parseJson(line) as { result: Record<string, unknown> };
      const r = value.result;
      if (Array.isArray(r['tools'])) {
        // ... and the descriptions rewritten for agents (issue 12 item 9) read as they were.
        // ... and context.resolve's input schema gained format and explain (issue 43), and
        // context.build's label (issue 46): the older eras are shown their legacy schemas,
        // which are the new ones less those.
        r['tools'] = (r['tools'] as Record<string, unknown>[]).map(({ title: _t, outputSchema: _o, annotations: _a, ...rest }) => {
          const tool = toolNamed(String(rest['name']));
          t.same(rest['inputSchema'], tool?.inputSchema, `${v}: ${String(rest['name'])}: the current input schema`);
          if (tool?.legacyInputSchema !== undefined) {
            type WithProperties = { properties: Record<string, unknown> };
            const current = (tool.inputSchema as unknown as WithProperties).properties;
            const legacy = (tool.legacyInputSchema as unknown as WithProperties).properties;
            // context.build gained label (issue 46 item 4) the same way.
            const added = tool.name === 'context.build' ? ['label'] : ['format', 'explain'];
            const older = Object.fromEntries(Object.entries(current).filter(([k]) => !added.includes(k)));
            t.same(Object.keys(current).filter((k) => !(k in legacy)), added, `${v}: ${tool.name}: the new input properties are ${added.join(' and ')}`);
            t.same({ ...tool.inputSchema, properties: older }, tool.legacyInputSchema, `${v}: ${tool.name}: the legacy input schema is the new one less ${added.join(' and ')}`);
          }
          return { ...rest, description: tool?.legacyDescription ?? tool?.description, inputSchema: tool?.legacyInputSchema ?? tool?.inputSchema };
        });
      }
      if (r['protocolVersion'] === v) r['protocolVersion'] = '2025-03-26';
      delete r['structuredContent'];
      t.same(value, parseJson(older[i] ?? ''), `${v} line ${i + 1}: the older reply once the additions are removed`);
    }
  }
});

t.test('issue 12 item 9: the cache tools tell an agent how to ask', async (t) => {
  const text = (name: string): string => toolNamed(name)?.description ?? '';
  t.match(text('context.resolve'), /Call context\.list_caches first/, 'resolve: list caches first');
  t.match(text('context.resolve'), /few distinctive keywords/, 'resolve: short keyword queries (v0)');
  // Reworded for both engines (issue: MCP 2026-07-28 beside the handshake eras, item 3).
  t.match(text('context.resolve'), /budget is an integer >= 0, counted in the cache's tokenizer .*o200k_base.*ceil\(UTF-8 bytes \/ 4\) for v0.*for v1 caches it bounds this whole returned text/, 'resolve: what a budget means, per engine');
  t.match(text('context.resolve'), /query is a natural-language question/, 'resolve: what a query is');
  t.match(text('context.list_caches'), /Call this first/, 'list_caches: the first call');
  t.match(text('context.inspect_cache'), /name exactly as context\.list_caches returns it/, 'inspect_cache: where names come from');
});

t.test('the schemas are not vacuous: wrong answers fail them', async (t) => {
  const resolve = draft2020.get('context.resolve');
  const good = recorded.structured.find((r) => r.tool.name === 'context.resolve' && !r.isError)?.structured as { documents: object[] };
  t.ok(resolve?.(good), 'a recorded answer passes');
  const bad: [string, string, unknown][] = [
    ['context.resolve', 'no selection', { documents: good.documents }],
    ['context.resolve', 'a string score', { ...good, documents: [{ ...good.documents[0], score: '0.5' }] }],
    ['context.resolve', 'a negative token count', { ...good, documents: [{ ...good.documents[0], tokens: -1 }] }],
    ['context.resolve', 'an unknown error code', { error: { code: 'oops', message: 'Internal error' } }],
    ['context.inspect_cache', 'an extra field', { cache_version: '', document_count: 0, total_bytes: 0, valid: false, extra: 1 }],
    ['context.list_caches', 'has_manifest as a string', { caches: [{ path: 'a', has_manifest: 'yes' }] }],
    ['context.cite', 'ok true without a citation', { ok: true, sha256_full: 'a'.repeat(64) }],
    ['context.cite', 'an unknown reason', { ok: false, reason: 'nope' }],
    ['context.claim', 'an unknown kind', { ok: true, claim: '[[vctx-exists:a]]', kind: 'maybe', normalized_path: 'a' }],
    ['context.verify_workspace', 'results and files at once', { ok: true, total: 0, ok_count: 0, fail_count: 0, results: [], files: [] }],
    ['context.check_freshness', 'stale with an error', { scope: 'a', state: 'stale', error: 'x' }],
    ['context.query_context', 'found without a context', { found: true, scope: 'a' }],
    ['context.list_contexts', 'an unknown state', { root: '.', total_directories: 1, skipped_directories: 0, tracked: 0, entries: [{ scope: '.', state: 'old', has_context: false }] }],
  ];
  for (const [name, what, value] of bad) {
    t.notOk(draft07.get(name)?.(value), `${name}: ${what} fails (draft-07)`);
    t.notOk(draft2020.get(name)?.(value), `${name}: ${what} fails (2020-12)`);
  }
});

t.test('a tool that fails inside is still an error object its schema accepts', async (t) => {
  // The session turns anything a tool throws into {"error":{...}}: the last shape of every
  // outputSchema. Driven in-process with each real tool's schema and a body that throws.
  for (const tool of TOOLS) {
    const broken: Tool = { ...tool, call: () => { throw new TypeError('boom'); } };
    const session = new McpSession({ tools: [broken], context: { cacheRoot: '/nowhere', projectRoot: '/nowhere' }, toolNames: 'dotted', log: () => {} });
    await session.handleLine({ kind: 'line', text: '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}' });
    const line = await session.handleLine({ kind: 'line', text: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":{}}}` });
    const result = (parseJson(line ?? '') as { result: { isError: boolean; structuredContent: unknown } }).result;
    t.equal(result.isError, true, `${tool.name}: isError`);
    t.ok(draft2020.get(tool.name)?.(result.structuredContent), `${tool.name}: internal_error validates`);
    t.equal(branchOf(tool, result.structuredContent), (tool.outputSchema['oneOf'] as object[]).length - 1, `${tool.name}: as the error object`);
  }
});

