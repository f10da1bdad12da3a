// A minimal MCP client over a spawned `context mcp`: requests matched to replies by id,
// requests from the server (roots/list) handed to a callback whose result is sent back.

import { spawn } from 'node:child_process';
import { contextArgv, minimalEnv } from './child.js';

export interface McpClient {
  request(method: string, params: unknown): Promise<Record<string, unknown>>;
  notify(method: string, params?: unknown): void;
  /** Calls a tool; the text of its result and whether it is an error. */
  callTool(name: string, args: unknown): Promise<{ text: string; isError: boolean; raw: string }>;
  close(): Promise<{ code: number | null; stderr: string }>;
}

export function startClient(args: readonly string[], cwd: string, onServerRequest: (method: string) => unknown = () => ({})): McpClient {
  const { command, args: argv } = contextArgv(['mcp', ...args]);
  const child = spawn(command, argv, { cwd, env: minimalEnv(cwd), stdio: ['pipe', 'pipe', 'pipe'] });
  let buffer = '';
  let stderr = '';
  const waiting = new Map<string, (line: string) => void>();
  child.stdout.on('data', (b: Buffer) => {
    buffer += b.toString('utf8');
    let nl = buffer.indexOf('\n');
    while (nl >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const message = JSON.parse(line) as { id?: unknown; method?: unknown };
      if (typeof message.method === 'string') {
        const result = onServerRequest(message.method);
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }) + '\n');
      } else {
        const key = JSON.stringify(message.id);
        waiting.get(key)?.(line);
        waiting.delete(key);
      }
      nl = buffer.indexOf('\n');
    }
  });
  child.stderr.on('data', (b: Buffer) => void (stderr += b.toString('utf8')));
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let next = 0;
  const send = (method: string, params: unknown): Promise<string> =>
    new Promise((resolve) => {
      const id = ++next;
      waiting.set(JSON.stringify(id), resolve);
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  return {
    async request(method, params) {
      return JSON.parse(await send(method, params)) as Record<string, unknown>;
    },
    notify(method, params) {
      child.stdin.write(JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }) + '\n');
    },
    async callTool(name, args) {
      const raw = await send('tools/call', { name, arguments: args });
      const reply = JSON.parse(raw) as { result?: { content?: { text?: string }[]; isError?: boolean }; error?: unknown };
      return { text: reply.result?.content?.[0]?.text ?? '', isError: reply.result?.isError === true || reply.error !== undefined, raw };
    },
    async close() {
      child.stdin.end();
      return { code: await exited, stderr };
    },
  };
}
