// The service worker: on install it caches every file of the site but the
// engine builds (the build fills in ASSETS, BUILDS and VERSION), and the
// engine build the browser runs when the page names it (a message
// `{ cache: 'relaxed' | 'simd' | 'scalar' }`); it answers from the cache first,
// caching what else is fetched, so the site works with the network off after
// the first visit and a visitor downloads one build, not three. A new build has a
// new VERSION, and activating it deletes the old versions' caches (never the
// engine worker's store of downloaded networks, which is keyed by content).
// Networks (`.dcnn`, the learners' `.dcsn`, the AlphaZero reimplementation's `.dcaz`) pass through: the worker caches them itself.
// Every response it serves carries the COOP and COEP headers, so that on a
// static host that cannot send them the page is still cross-origin isolated
// (shared memory, so threads) once the service worker controls it.
const VERSION = '__VERSION__';
const ASSETS = __ASSETS__;
const BUILDS = __BUILDS__;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(VERSION)
      .then((cache) => cache.addAll(ASSETS))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('message', (event) => {
  const files = BUILDS[event.data?.cache];
  if (files) event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(files)));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key.startsWith('deepchess-') && key !== VERSION).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

/** `response` with the cross-origin isolation headers. */
function isolated(response) {
  if (response.type === 'opaque' || response.type === 'opaqueredirect') return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || /\.dc(nn|sn|az)$/.test(url.pathname)) return;
  event.respondWith(
    caches.open(VERSION).then(async (cache) => {
      // `?build=scalar` and other parameters select behaviour, not content.
      const cached = await cache.match(request, { ignoreSearch: true });
      // The cached response carries the URL it was stored under, without the
      // query; a worker started from it would take that as its location and
      // lose its options. A copy (as `isolated` makes) has no URL, so the
      // request's stays.
      if (cached) return isolated(cached);
      try {
        const response = await fetch(request);
        if (response.ok) cache.put(request, response.clone());
        return isolated(response);
      } catch (error) {
        if (request.mode === 'navigate') {
          const page = await cache.match('index.html');
          if (page) return isolated(page);
        }
        throw error;
      }
    }),
  );
});
