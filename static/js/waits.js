/* cardleague: the home page's "what waits for you", live. No inline scripts (CSP: script-src 'self').

   #waits carries data-waits-url (the block alone, answering 204 while the version the page shows,
   ?v=, is still current) and either data-waits-stream (the account's Server-Sent Events: every news
   — an invitation, a match starting, your turn, a new round, a reminder — asks for the block again)
   or data-poll-every (ms: the server has no streams, so the page asks that often; never both). A
   stream that fails falls back to polling, as the play page's does.

   Only #waits-body is swapped: the new-match form below keeps what was typed. Focus stays where it
   was (the same button or link in the new block), an open "older" disclosure stays open, and a new
   invitation is announced politely in #waits-news (role=status), without moving focus.
*/
(function () {
  "use strict";

  var NEWS = ["invited", "seated", "match_started", "your_turn", "playing", "round_started", "reminder"];
  var root = null;
  var busy = false;
  var again = false;
  var stopped = false;
  var source = null;
  var timer = null;
  var soon = null;

  function toArray(list) { return Array.prototype.slice.call(list); }

  function body() { return document.getElementById("waits-body"); }

  function invitationIds(el) {
    return toArray(el.querySelectorAll("[data-invitation]")).map(function (li) {
      return li.getAttribute("data-invitation");
    });
  }

  /* What has focus inside the block, as a key that finds the same control in a new block. */
  function focusKey(el) {
    var active = document.activeElement;
    if (!active || !el.contains(active)) return null;
    if (active.tagName === "BUTTON" && active.form) {
      return "button|" + active.form.getAttribute("action") + "|" + active.textContent.trim();
    }
    if (active.tagName === "A") return "a|" + active.getAttribute("href");
    if (active.tagName === "SUMMARY") return "summary";
    return "";
  }

  function findKey(el, key) {
    var parts = key.split("|");
    if (parts[0] === "summary") return el.querySelector("summary");
    if (parts[0] === "a") {
      return toArray(el.querySelectorAll("a")).filter(function (a) { return a.getAttribute("href") === parts[1]; })[0];
    }
    if (parts[0] === "button") {
      return toArray(el.querySelectorAll("form")).filter(function (f) { return f.getAttribute("action") === parts[1]; })
        .map(function (f) {
          var text = parts.slice(2).join("|");
          return toArray(f.querySelectorAll("button")).filter(function (b) { return b.textContent.trim() === text; })[0];
        }).filter(Boolean)[0];
    }
    return null;
  }

  function announce(texts) {
    var news = document.getElementById("waits-news");
    if (!news || !texts.length) return;
    news.textContent = "";
    // a moment later, so that the same words twice are announced twice
    setTimeout(function () { news.textContent = texts.join(". "); }, 100);
  }

  function swap(html) {
    var old = body();
    if (!old) return;
    var holder = document.createElement("template");
    holder.innerHTML = html;
    var fresh = holder.content.querySelector("#waits-body");
    if (!fresh) return;
    var known = invitationIds(old);
    var key = focusKey(old);
    var olderOpen = toArray(old.querySelectorAll("details")).some(function (d) { return d.open; });
    if (olderOpen) toArray(fresh.querySelectorAll("details")).forEach(function (d) { d.open = true; });
    old.parentNode.replaceChild(fresh, old);
    if (key !== null) {
      var same = key ? findKey(fresh, key) : null;
      var title = document.getElementById("waits-title");
      if (same) same.focus({ preventScroll: true });
      else if (title) title.focus({ preventScroll: true }); // what had focus went away: stay in this section
    }
    announce(toArray(fresh.querySelectorAll("[data-invitation]")).filter(function (li) {
      return known.indexOf(li.getAttribute("data-invitation")) < 0;
    }).map(function (li) { return li.getAttribute("data-announce"); }).filter(Boolean));
    document.documentElement.setAttribute("data-waits-version", fresh.getAttribute("data-waits-version") || "");
  }

  function refresh() {
    if (stopped) return;
    if (busy) { again = true; return; }
    var current = body();
    if (!current) return;
    busy = true;
    var version = current.getAttribute("data-waits-version") || "";
    var url = root.getAttribute("data-waits-url") + "?v=" + encodeURIComponent(version);
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } }).then(function (response) {
      if (response.status === 401 || response.status === 403) { stop(); return null; } // signed out elsewhere
      if (response.status !== 200) return null;  // 204: nothing new
      return response.text();
    }).then(function (html) {
      if (html) swap(html);
    }).catch(function () { /* offline for a moment: the next notice or poll asks again */ }).then(function () {
      busy = false;
      if (again) { again = false; refresh(); }
    });
  }

  /* Several notices at once (a reconnecting stream says everything that waits) make one request. */
  function refreshSoon() {
    if (soon) return;
    soon = setTimeout(function () { soon = null; refresh(); }, 250);
  }

  function stop() {
    stopped = true;
    if (source) source.close();
    if (timer) clearInterval(timer);
  }

  function poll(every) {
    if (timer || stopped) return;
    document.documentElement.setAttribute("data-waits-live", "polling");
    timer = setInterval(function () { if (!document.hidden) refresh(); }, every);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) refresh(); });
  }

  function follow(url, every) {
    var failures = 0;
    source = new EventSource(url);
    // a stream that says nothing at all (a proxy holding it back) is no stream: poll instead
    var silent = setTimeout(function () { if (source) { source.close(); poll(every); } }, 5000);
    source.addEventListener("hello", function () {
      clearTimeout(silent);
      failures = 0;
      document.documentElement.setAttribute("data-waits-live", "stream");
      refreshSoon(); // whatever changed while the stream was away
    });
    NEWS.forEach(function (name) {
      source.addEventListener(name, function () { failures = 0; refreshSoon(); });
    });
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures >= 3) {
        clearTimeout(silent);
        source.close();
        poll(every);
      }
    };
  }

  function start() {
    root = document.getElementById("waits");
    if (!root || !root.getAttribute("data-waits-url") || !window.fetch) return;
    var every = parseInt(root.getAttribute("data-poll-every") || "10000", 10);
    var stream = root.getAttribute("data-waits-stream");
    if (stream && window.EventSource) follow(stream, every);
    else poll(every);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
