// A static file server for web/dist:
//   node web/serve.mjs [--port 8080] [--dir dist] [--no-isolation]
// The site has no server logic; this only maps paths to files with the
// right MIME types (application/wasm, text/javascript for the worker), and
// sends the COOP and COEP headers that make the page cross-origin isolated,
// which the engine's threads need (shared memory); --no-isolation leaves
// them out, as a plain static host does.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.dcnn': 'application/octet-stream',
  '.dcsn': 'application/octet-stream',
  '.dcaz': 'application/octet-stream',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` on 127.0.0.1:`port` (0 picks a free port), with the cross-origin
 * isolation headers unless `isolation` is false; resolves to the server.
 */
export function serve(dir, port = 8080, { isolation = true } = {}) {
  const root = resolve(dir);
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    let stat;
    try {
      stat = file.startsWith(root + sep) && statSync(file);
    } catch {
      stat = null;
    }
    if (!stat || !stat.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': stat.size,
      'cache-control': 'no-cache',
      ...(isolation ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' } : {}),
    });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const here = fileURLToPath(new URL('.', import.meta.url));
  const isolation = !process.argv.includes('--no-isolation');
  const server = await serve(arg('--dir', join(here, 'dist')), Number(arg('--port', 8080)), { isolation });
  const { port } = server.address();
  console.log(`DeepChess: http://127.0.0.1:${port}/ (Ctrl-C stops)`);
}
