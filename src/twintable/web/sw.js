// The service worker: keeps this install's shell (the page and its versioned files) so the
// app opens at once, and opens offline (it then says the server is out of reach). The
// server writes this install's version in (server/assets.py); a new install is a new
// worker, which drops the old files. Nothing but the shell is kept: the lobby, the tables
// and every move always come from the server.
const VERSION = "__VERSION__";
// The page and every file the shell and the games' clients load (the fonts aside: a
// page fetches the pieces it draws, and they are kept then).
const SHELL_FILES = __FILES__;
const SHELL = `twintable-${VERSION}`;
const FILES = `/static/${VERSION}/`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((kept) => kept.addAll(["/", ...SHELL_FILES]))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

async function keptFirst(request) {
  const kept = await caches.open(SHELL);
  const found = await kept.match(request);
  if (found) return found;
  const fresh = await fetch(request);
  if (fresh.ok) await kept.put(request, fresh.clone());
  return fresh;
}

async function networkFirst(request) {
  const kept = await caches.open(SHELL);
  try {
    const fresh = await fetch(request);
    if (fresh.ok) await kept.put("/", fresh.clone());
    return fresh;
  } catch (error) {
    const found = await kept.match("/");
    if (found) return found;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(FILES)) event.respondWith(keptFirst(event.request));
  else if (url.pathname === "/" && event.request.mode === "navigate") event.respondWith(networkFirst(event.request));
});
