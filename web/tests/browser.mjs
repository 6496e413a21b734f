// Shared set-up for the browser tests: the built site (web/dist) served on a
// free port, and Debian's chromium driven by playwright-core.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
export const dist = join(here, '..', 'dist');
/** Screenshots land here for a person to look at. */
export const shots = process.env.DEEPCHESS_SCREENSHOTS ?? join(here, '..', 'test-results');
mkdirSync(shots, { recursive: true });

/**
 * The threads the engine offers on an isolated page here: the cores this
 * process may run on (chromium counts them the same way, so `taskset -c 0`
 * leaves one), at most 32.
 */
export const CORES = Math.min(32, availableParallelism());
/** The page's words for them (`web/src/status.js`). */
export const THREADS_HERE = CORES > 1 ? `up to ${CORES} threads here` : 'one thread here';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Serves the site (or `root`) and starts chromium with a fresh profile;
 * `webgpu` adds `--enable-unsafe-webgpu` (a SwiftShader adapter here);
 * `isolation: false` serves without the COOP/COEP headers, as a plain
 * static host does.
 */
export async function start({ webgpu = false, root = dist, isolation = true } = {}) {
  const server = await serve(root, 0, { isolation });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const profile = mkdtempSync(join(tmpdir(), 'deepchess-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: webgpu ? [...FLAGS, '--enable-unsafe-webgpu'] : FLAGS,
    viewport: { width: 1280, height: 900 },
  });
  const errors = [];
  const watch = (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`page: ${error.message}`));
  };
  context.on('page', watch);
  for (const page of context.pages()) watch(page);
  return {
    origin,
    context,
    errors,
    async page(path = '/') {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(origin + path);
      return page;
    },
    /** Stops the web server (for the offline test). */
    async stopServer() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async close() {
      await context.close();
      if (server.listening) server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A test file's shared page: `start(options)`, then `path` opened (for its
 * `before` hook).
 */
export async function openSite(path = '/', options = {}) {
  const browser = await start(options);
  return { browser, page: await browser.page(path) };
}

/** Fails if any page logged an error, and closes the browser and the server (a test file's `after` hook). */
export async function closeChecked(browser) {
  try {
    assert.deepEqual(browser.errors, [], 'no console errors');
  } finally {
    await browser.close();
  }
}

/**
 * Opens the site's page in `page` with nothing in its storage. The storage is
 * cleared by a script that runs before any of the app's, once per tab (a later
 * reload keeps what the page saved): clearing it from the app's own page and
 * reloading races the page, which saves its game after every update and can
 * put an earlier test's game back between the clear and the reload.
 */
export async function openFresh(page, origin) {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('deepchess-test-cleared')) return;
    localStorage.clear();
    sessionStorage.setItem('deepchess-test-cleared', '1');
  });
  await page.goto(origin + '/');
}

/** Opens the Engine settings panel (Network, Search, Per move, Threads), where its pickers can be used. */
export async function openSettings(page) {
  await page.evaluate(() => (document.querySelector('#engine-settings').open = true));
}

/**
 * Clicks the centre of `square` (`e2`) where the page shows the board now,
 * with `bottom`'s side at the bottom of the board. It does not scroll first.
 */
export async function clickSquare(page, square, bottom = 'white') {
  const box = await page.locator('#board cg-board').boundingBox();
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const [column, row] = bottom === 'white' ? [file, 7 - rank] : [7 - file, rank];
  await page.mouse.click(box.x + ((column + 0.5) * box.width) / 8, box.y + ((row + 0.5) * box.height) / 8);
}

/**
 * Runs a UCI exchange with a fresh worker inside `page`: sends `lines`, then
 * resolves with every line up to the first that matches `until` (a regexp
 * source). `workerUrl` may carry `?build=scalar`.
 */
export async function uci(page, lines, until, workerUrl = 'engine/worker.js', timeout = 60000) {
  const [run] = await uciRuns(page, [lines], until, workerUrl, timeout);
  return run;
}

/**
 * {@link uci} in turns, all in one worker: sends the first batch of `batches`,
 * collects the lines up to the first that matches `until`, then sends the
 * next batch, and so on; resolves with each turn's lines.
 */
export function uciRuns(page, batches, until, workerUrl = 'engine/worker.js', timeout = 60000) {
  return page.evaluate(
    ({ batches, until, workerUrl, timeout }) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL(workerUrl, document.baseURI), { type: 'module' });
        const runs = [[]];
        const timer = setTimeout(() => reject(new Error(`timeout; got ${JSON.stringify(runs)}`)), timeout);
        const send = () => {
          for (const line of batches[runs.length - 1]) worker.postMessage(line);
        };
        worker.onmessage = (event) => {
          runs.at(-1).push(event.data);
          if (!new RegExp(until).test(event.data)) return;
          if (runs.length === batches.length) {
            clearTimeout(timer);
            worker.terminate();
            resolve(runs);
            return;
          }
          runs.push([]);
          send();
        };
        send();
      }),
    { batches, until, workerUrl, timeout },
  );
}
