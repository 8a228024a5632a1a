// The site's service worker (served at /sw.js, scope /): the offline page when a page cannot
// load, and the turn nudge's notification (signals.js asks, or a Web Push message; a click
// brings the table back).
"use strict";
var CACHE = "poker-offline-{{ version }}";
var OFFLINE = "{{ offline_url }}";
var KEEP = [OFFLINE, "{{ site_css }}", "{{ icon }}"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(KEEP); }));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) {
      return name.indexOf("poker-offline-") === 0 && name !== CACHE;
    }).map(function (name) { return caches.delete(name); }));
  }));
});

// Only a page being opened (a GET navigation): from the network, or the offline page when
// there is none. Everything else (htmx, forms, the socket) goes past untouched.
self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.mode !== "navigate" || request.method !== "GET") return;
  event.respondWith(fetch(request).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE); });
  }));
});

// A click on the nudge: the table's tab in front (or opened again).
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (new URL(windows[i].url).pathname === new URL(url, self.location).pathname) return windows[i].focus();
    }
    return self.clients.openWindow(url);
  }));
});

// A push message (tables/push.py, where the site has a VAPID key): the turn nudge.
self.addEventListener("push", function (event) {
  var message;
  try { message = event.data ? event.data.json() : null; } catch (error) { message = null; }
  if (message && message.url) event.waitUntil(turnNudge(message));
});

// The nudge shown, unless a tab of that table is in front (its page nudges by itself then).
function turnNudge(message) {
  var path = new URL(message.url, self.location).pathname;
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      var open = windows[i];
      if (new URL(open.url).pathname === path && (open.focused || open.visibilityState === "visible")) return;
    }
    return self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,  // the page's own nudge for the table has the same: one at a time
      renotify: true,
      icon: "{{ icon_192 }}",
      data: { url: message.url },
    });
  });
}
