/**
 * A minimal keep-alive HTTP client for timed requests: node:http straight,
 * so the client adds as little as possible to what is measured (fetch adds
 * its own Web Streams and FormData work). Multipart bodies are built by hand.
 */
import http from 'node:http';

export interface RawResponse {
  status: number;
  text: string;
}

export class TimedClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  private readonly target: URL;

  constructor(
    baseUrl: string,
    private readonly defaults: Record<string, string> = {},
  ) {
    this.target = new URL(baseUrl);
  }

  request(method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body) : body;
      const req = http.request(
        {
          host: this.target.hostname,
          port: this.target.port,
          method,
          path,
          agent: this.agent,
          headers: { ...this.defaults, ...headers, ...(payload ? { 'content-length': String(payload.byteLength) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  json(method: string, path: string, value: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    return this.request(method, path, JSON.stringify(value), { 'content-type': 'application/json', ...headers });
  }

  /** One file in the form field `file`, as a browser would send it. */
  upload(path: string, fileName: string, content: string, type: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    const boundary = `----groundworkbench${Date.now().toString(16)}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return this.request('POST', path, body, { 'content-type': `multipart/form-data; boundary=${boundary}`, ...headers });
  }

  close(): void {
    this.agent.destroy();
  }
}
