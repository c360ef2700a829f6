import { request } from 'node:http';
import type { RunningHost } from '../host/server';

/** One HTTP exchange with a loopback host, as the host tests make it. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends one request to `host` (Host header set to it unless `headers` says otherwise) and reads the whole answer. */
export function ask(host: RunningHost, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path, method, headers: { host: `127.0.0.1:${host.port}`, ...headers } }, (res) => {
      let data = '';
      res.on('data', (c: Buffer) => (data += c.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
