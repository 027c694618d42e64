// The service worker of Web Push (docs/social.md, "Web Push"): shows a seat's notification when
// the page is closed, and opens (or focuses) the game's page on a click. The push arrives
// decrypted by the browser; it holds a title, a body and the page's path.
/// <reference lib="webworker" />
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("push", (event) => {
  /** @type {{title?: string, body?: string, url?: string, kind?: string, game_id?: string, phase?: string}} */
  let push = {};
  try {
    push = event.data ? event.data.json() : {};
  } catch {
    push = {body: event.data ? event.data.text() : ""};
  }
  const tag = push.game_id ? `${push.game_id}-${push.kind || "news"}-${push.phase || ""}` : undefined;
  event.waitUntil(worker.registration.showNotification(push.title || "Entente",
    {body: push.body || "", tag, data: {url: push.url || "/"}}));
});

worker.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", worker.location.origin).href;
  event.waitUntil((async () => {
    const open = await worker.clients.matchAll({type: "window", includeUncontrolled: true});
    const same = open.find((client) => client.url === url);
    if (same) await same.focus();
    else await worker.clients.openWindow(url);
  })());
});
