// Every page registers the site's service worker (/sw.js, scope /): it shows the offline page
// when a page cannot load, and the turn nudge's notifications (signals.js).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function (error) {
    console.warn("The service worker did not register:", error);
  });
})();
