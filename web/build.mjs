// Builds the static site into web/dist:
//   node web/build.mjs [--pkg wasm/pkg] [--out web/dist]
// - bundles the app, the embedding example and the engine API with esbuild
//   (chessground and chessops from npm are vendored into the bundles);
// - copies the engine worker and the wasm-bindgen output (`make wasm-web`);
// - fills the page's Strength menu from strength-levels.json (the fitted ladder);
// - writes the service worker with the list of every file and a version hash.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { strengthMenu } from './strength.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const pkg = arg('--pkg', join(here, '..', 'wasm', 'pkg'));
const out = arg('--out', join(here, 'dist'));
// The threaded builds (`_mt`) run where the page is cross-origin isolated.
const BUILDS = ['relaxed', 'simd', 'scalar', 'relaxed_mt', 'simd_mt'];

for (const build of BUILDS) {
  for (const file of [`deepchess_${build}.js`, `deepchess_${build}_bg.wasm`]) {
    if (!existsSync(join(pkg, file))) {
      console.error(`missing ${join(pkg, file)}: run \`make wasm-web\` first (or \`make web\`)`);
      process.exit(1);
    }
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'engine'), { recursive: true });

await esbuild.build({
  entryPoints: {
    app: join(here, 'src', 'main.js'),
    'embed-example': join(here, 'src', 'embed-example.js'),
    deepchess: join(here, 'src', 'engine.js'),
  },
  outdir: out,
  bundle: true,
  format: 'esm',
  minify: true,
  target: 'es2022',
  legalComments: 'eof',
  logLevel: 'warning',
});

const css = ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']
  .map((f) => readFileSync(join(here, 'node_modules', 'chessground', 'assets', f), 'utf8'))
  .concat(readFileSync(join(here, 'src', 'style.css'), 'utf8'))
  .join('\n');
const minified = await esbuild.transform(css, { loader: 'css', minify: true });
writeFileSync(join(out, 'app.css'), minified.code);

// The Strength menu's levels and ratings: the fitted ladder (scripts/ladder_fit.py --json).
const ladder = JSON.parse(readFileSync(join(here, 'strength-levels.json'), 'utf8'));
writeFileSync(join(out, 'index.html'), strengthMenu(readFileSync(join(here, 'index.html'), 'utf8'), ladder));
for (const file of ['embed-example.html', 'manifest.webmanifest', 'icon.svg']) {
  copyFileSync(join(here, file), join(out, file));
}
for (const file of ['worker.js', 'helper.js']) copyFileSync(join(here, 'engine', file), join(out, 'engine', file));
for (const build of BUILDS) {
  for (const file of [`deepchess_${build}.js`, `deepchess_${build}_bg.wasm`]) {
    copyFileSync(join(pkg, file), join(out, 'engine', file));
  }
}
// The other learners' networks (weights/learners.json): copied to nets/ with
// their list, fetched by the engine worker only when a visitor picks one.
const learners = join(here, '..', 'weights', 'learners.json');
const networks = existsSync(learners) ? JSON.parse(readFileSync(learners, 'utf8')) : [];
mkdirSync(join(out, 'nets'), { recursive: true });
for (const net of networks) copyFileSync(join(here, '..', 'weights', net.file), join(out, 'nets', net.file));
writeFileSync(join(out, 'nets', 'networks.json'), JSON.stringify(networks, null, 2) + '\n');
writeFileSync(join(out, 'icon-192.png'), icon(192));
writeFileSync(join(out, 'icon-512.png'), icon(512));

// The service worker caches everything above on install, except the engine
// builds: of those it caches the one the browser runs (the page names it once
// the engine is up), and any other when it is fetched.
const files = walk(out).map((f) => relative(out, f).split('\\').join('/'));
const hash = createHash('sha256');
for (const f of files.sort()) hash.update(f).update(readFileSync(join(out, f)));
const version = `deepchess-${hash.digest('hex').slice(0, 12)}`;
const builds = Object.fromEntries(
  BUILDS.map((b) => [b, [`engine/deepchess_${b}.js`, `engine/deepchess_${b}_bg.wasm`, ...(b.endsWith('_mt') ? ['engine/helper.js'] : [])]]),
);
const inBuild = new Set(Object.values(builds).flat());
// Networks are not precached: a visitor downloads the one they pick.
const assets = ['./', ...files.filter((f) => !inBuild.has(f) && !/\.dc(nn|sn|az)$/.test(f))];
const sw = readFileSync(join(here, 'sw.js'), 'utf8')
  .replace("'__VERSION__'", JSON.stringify(version))
  .replace('__ASSETS__', JSON.stringify(assets, null, 2))
  .replace('__BUILDS__', JSON.stringify(builds, null, 2));
writeFileSync(join(out, 'sw.js'), sw);

const total = walk(out).reduce((sum, f) => sum + statSync(f).size, 0);
console.log(`web: ${files.length + 1} files, ${(total / 1024).toFixed(0)} KiB in ${relative(process.cwd(), out) || '.'} (${version})`);

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The app icon as a PNG: a 2×2 board in the site's colours. */
function icon(size) {
  const light = [0xf0, 0xd9, 0xb5];
  const dark = [0xb5, 0x88, 0x63];
  const rows = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const colour = (x < size / 2) === (y < size / 2) ? light : dark;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type, data) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
