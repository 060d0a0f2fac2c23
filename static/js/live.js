/* cardleague: live pages without polling. A page part with data-stream-url follows that Server-Sent
   Events stream (a seat's events, or a tournament's changes) and, on each event, fires
   "cardleague:changed" on <body>: the part's htmx request (hx-trigger="cardleague:changed from:body")
   fetches what is new. Where the server has no streams (the no-server default answers 503) or the
   stream keeps failing, the page falls back to asking every few seconds (data-poll-every, in ms).
   One stream per page, opened once (the part itself is swapped by htmx on every change). */
(function () {
  "use strict";

  var source = null;
  var fallback = null;
  var failures = 0;

  function changed() {
    document.body.dispatchEvent(new CustomEvent("cardleague:changed"));
  }

  function poll(every) {
    if (fallback) return;
    document.documentElement.setAttribute("data-live", "polling");
    fallback = setInterval(changed, every);
  }

  function follow() {
    if (source || fallback) return;
    var part = document.querySelector("[data-stream-url]");
    if (!part) return;
    var every = parseInt(part.getAttribute("data-poll-every") || "2000", 10);
    if (!window.EventSource) { poll(every); return; }
    source = new EventSource(part.getAttribute("data-stream-url"));
    // a stream that says nothing at all (a proxy holding it back) is no stream: poll instead
    var silent = setTimeout(function () { if (source) { source.close(); poll(every); } }, 5000);
    source.addEventListener("hello", function () {
      clearTimeout(silent);
      failures = 0;
      document.documentElement.setAttribute("data-live", "stream");
    });
    ["match_event", "changed"].forEach(function (name) {
      source.addEventListener(name, function () { failures = 0; changed(); });
    });
    source.addEventListener("end", function () { source.close(); changed(); });
    source.onerror = function () {
      failures += 1;
      // a server without streams (503) or a stream that keeps failing: ask every few seconds instead
      if (source.readyState === EventSource.CLOSED || failures >= 3) {
        source.close();
        poll(every);
      }
    };
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", follow);
  else follow();
})();
