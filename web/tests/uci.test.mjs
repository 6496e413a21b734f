// web/bench/uci.mjs, the site's engine as a UCI program for matches: in headless chromium (the
// page's worker) and in node, the same answers, the same tree at a fixed depth, `stop` during
// `go infinite`, and the end of the input as `quit` with every answer out first.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dist } from './browser.mjs';

const script = join(fileURLToPath(new URL('..', import.meta.url)), 'bench', 'uci.mjs');
const skip = !existsSync(join(dist, 'engine', 'worker.js')) && 'no web/dist (make web)';

/**
 * The program with `args`: `send(line)`, `until(regexp)` (the lines up to the first match), `exit`
 * (its code) and `errors()` (what it wrote to standard error).
 */
function start(args) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    process.stderr.write(chunk);
  });
  const lines = [];
  let wake = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    wake?.();
  });
  // 'close', not 'exit': standard error is read to its end first.
  const exit = new Promise((resolve) => child.on('close', resolve));
  return {
    send: (line) => child.stdin.write(`${line}\n`),
    end: () => child.stdin.end(),
    async until(pattern, ms = 60000) {
      const timer = setTimeout(() => child.kill(), ms);
      const seen = [];
      try {
        for (;;) {
          while (lines.length) {
            const line = lines.shift();
            seen.push(line);
            if (pattern.test(line)) return seen;
          }
          if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ${pattern}: ${JSON.stringify(seen)}`);
          await Promise.race([new Promise((resolve) => (wake = resolve)), exit]);
        }
      } finally {
        clearTimeout(timer);
      }
    },
    exit,
    errors: () => stderr,
  };
}

/** Nodes of the last complete iteration in `lines`. */
const nodesOf = (lines) => Number(/ nodes (\d+)/.exec(lines.filter((l) => l.startsWith('info depth') && l.includes(' pv ')).at(-1))[1]);

async function session(args) {
  const engine = start(args);
  engine.send('uci');
  const hello = await engine.until(/^uciok$/);
  engine.send('isready');
  await engine.until(/^readyok$/);
  engine.send('position startpos moves e2e4 e7e5');
  engine.send('go depth 6');
  const fixed = await engine.until(/^bestmove /);
  engine.send('go infinite');
  await engine.until(/^info depth 3 /);
  const stopped = Date.now();
  engine.send('stop');
  const stop = await engine.until(/^bestmove /);
  const stopMs = Date.now() - stopped;
  // The input ends during a search: its bestmove comes out, then the program ends.
  engine.send('go infinite');
  await engine.until(/^info depth 3 /);
  engine.end();
  const last = await engine.until(/^bestmove /, 10000);
  return { hello, fixed, stop, stopMs, last, code: await engine.exit };
}

test('in chromium and in node: one engine, the same tree, stop and quit answered', { skip }, async () => {
  const browser = await session([]);
  const node = await session(['--in', 'node']);
  assert.ok(browser.hello.some((l) => /^id name DeepChess .* wasm-\w+/.test(l)), browser.hello.join('\n'));
  assert.ok(node.hello.some((l) => /^id name DeepChess .* wasm-\w+ \(node\)$/.test(l)), node.hello.join('\n'));
  for (const run of [browser, node]) {
    assert.match(run.fixed.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/);
    assert.match(run.stop.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/);
    assert.ok(run.stopMs < 1000, `stop answered after ${run.stopMs} ms`);
    assert.match(run.last.at(-1), /^bestmove [a-h][1-8][a-h][1-8]/);
    assert.equal(run.code, 0);
  }
  // At a fixed depth and one thread every build searches the same tree.
  assert.equal(nodesOf(browser.fixed), nodesOf(node.fixed));
});

test('a build it does not have is refused in words', { skip }, async () => {
  const engine = start(['--build', 'avx9']);
  assert.equal(await engine.exit, 2);
  assert.match(engine.errors(), /--build takes relaxed, simd, scalar, not avx9/);
});
