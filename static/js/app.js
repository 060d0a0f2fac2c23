/* cardleague: the behaviour every page shares. No inline scripts anywhere (Content-Security-Policy:
   script-src 'self'): pages carry their data in data-* attributes and json_script blocks, and
   everything here starts on page load and after every htmx swap (htmx.onLoad).

   - Play page: when a board arrives with <template class="frame"> positions (the moves since the
     page's own position, as the seat saw them), they are shown one by one (~600 ms apart) with
     their log lines highlighted, then the live board; "Skip to now" ends it. Speed: the log's
     "Bot moves" choice, kept in localStorage.
   - Focus stays where the player was: after a swap, the button with the same data-focus key,
     else the first card of the hand.
   - Turn changes and the moves since the page's last board (data-news: one short sentence per move,
     else the last move) are announced in #announcer (aria-live); the page title follows the turn
     ("(your turn) LIVOL #12 · cardleague").
   - A hand card that cannot be played now (data-reason: the engine's reason, in words) says why where
     the board's hint is ([data-reason-out], a live region) when it is focused or clicked; nothing is sent.
   - Replay page: ← → step, PageUp / PageDown jump a round, Home / End jump to the ends; on arrival
     the focus is on the board.
*/
(function () {
  "use strict";

  var SPEEDS = { normal: 600, fast: 120, off: 0 };
  var STORE_KEY = "cardleague.playback";
  var playback = null;       // the running playback, if any
  var pendingFocus = null;   // what had focus in #board before a swap
  var logScroll = 0;         // the log's scroll position before a swap
  var announced = "";
  var shownSeq = 0;          // the position the page showed before the last swap

  function speed() {
    try { return localStorage.getItem(STORE_KEY) || "normal"; } catch (e) { return "normal"; }
  }

  function setSpeed(value) {
    try { localStorage.setItem(STORE_KEY, value); } catch (e) { /* private mode: this page only */ }
  }

  function toArray(list) { return Array.prototype.slice.call(list); }

  function visible(el) { return !!(el && el.offsetParent !== null && !el.disabled); }

  /* ---------------------------------------------------------------- focus */

  function focusKey(el) {
    var holder = el && el.closest ? el.closest("[data-focus]") : null;
    return holder ? holder.getAttribute("data-focus") : null;
  }

  function restoreFocus(layout) {
    if (!pendingFocus) return;
    var wanted = pendingFocus;
    pendingFocus = null;
    var live = layout.querySelector(".board.live") || layout.querySelector(".board");
    if (!live) return;
    var target = null;
    if (wanted.key) {
      target = toArray(live.querySelectorAll("[data-focus]")).filter(function (el) {
        return el.getAttribute("data-focus") === wanted.key && visible(el);
      })[0] || null;
    }
    if (!target) {
      var hand = live.querySelector("[data-hand]");
      if (hand) {
        var cards = toArray(hand.querySelectorAll("button, summary")).filter(visible);
        // a card that can be played, else the board's other moves (Draw, Pass), else any card (one that
        // cannot be played says why when focused: not after every move unless it is all there is)
        target = cards.filter(function (el) { return el.getAttribute("aria-disabled") !== "true"; })[0] ||
                 toArray(live.querySelectorAll(".moves button.move")).filter(visible)[0] || cards[0] || null;
        if (!target) { hand.setAttribute("tabindex", "-1"); target = hand; }
      }
    }
    if (!target) { live.setAttribute("tabindex", "-1"); target = live; }
    target.focus({ preventScroll: true });
  }

  /* ---------------------------------------------------------------- announcements and title */

  function announce(board) {
    if (!board) return;
    if (board.dataset.title) document.title = board.dataset.title;
    var region = document.getElementById("announcer");
    if (!region) return;
    var text = [board.dataset.news || board.dataset.last, board.dataset.turn].filter(Boolean).join(". ");
    if (text && text !== announced) {
      announced = text;
      region.textContent = text;
    }
  }

  /* ---------------------------------------------------------------- the log during a playback */

  function markLog(layout, seq, from) {
    var log = layout.querySelector(".move-log");
    if (!log) return;
    log.classList.toggle("playing", seq !== null);
    toArray(log.querySelectorAll(".log-lines li[data-seq]")).forEach(function (li) {
      var s = +li.dataset.seq;
      li.classList.toggle("is-future", seq !== null && s > seq);
      li.classList.toggle("is-current", seq !== null && +li.dataset.move === from && s <= seq);
    });
    toArray(log.querySelectorAll(".log-round[data-first]")).forEach(function (round) {
      var future = seq !== null && +round.dataset.first > seq;
      round.classList.toggle("is-future", future);
      if (seq !== null && !future && round.querySelector("li.is-current")) round.open = true;
    });
    var current = log.querySelector("li.is-current");
    var body = log.querySelector(".log-body");
    if (current && body) {
      body.scrollTop = Math.max(0, body.scrollTop + current.getBoundingClientRect().top - body.getBoundingClientRect().top - 8);
    }
  }

  /* ---------------------------------------------------------------- playback */

  function finish(p, quiet) {
    if (!p || p.finished) return;
    p.finished = p.done = true;
    clearTimeout(p.timer);
    clearTimeout(p.watchdog);
    var hadFocus = p.stage.contains(document.activeElement) ||
                   (p.focused && document.activeElement === document.body);
    if (p.stage.parentNode) p.stage.parentNode.removeChild(p.stage);
    p.live.hidden = false;
    markLog(p.layout, null, null);
    var body = p.layout.querySelector(".log-body");
    if (body) body.scrollTop = p.scroll;  // where the reader had it (the top: the newest) before the playback
    if (playback === p) playback = null;
    if (quiet || !p.layout.isConnected) return;
    announce(p.live);
    if (hadFocus && !pendingFocus) pendingFocus = { key: null };
    restoreFocus(p.layout);
  }

  function play(layout) {
    var live = layout.querySelector(".board.live");
    // positions the page has already shown (an answer that crossed a newer one) are not shown again
    var frames = toArray(layout.querySelectorAll("template.frame")).filter(function (f) {
      return +f.dataset.seq > shownSeq;
    });
    var ms = SPEEDS[speed()];
    if (!live || !frames.length || !ms || !layout.isConnected) return false;
    if (playback) finish(playback);
    var stage = document.createElement("div");
    stage.className = "board is-frame";
    stage.setAttribute("data-playback", "");
    live.hidden = true;
    live.parentNode.insertBefore(stage, live.nextSibling);
    var logBody = layout.querySelector(".log-body");
    // focused: the player was on the board (or its move's button) when the playback began, so the
    // focus comes back to the board at its end, even if a frame without a skip button dropped it
    var p = { layout: layout, live: live, stage: stage, timer: null, done: false, finished: false, i: 0,
              scroll: logBody ? logBody.scrollTop : 0,
              focused: pendingFocus !== null || layout.contains(document.activeElement) };
    playback = p;
    // whatever happens to the page meanwhile, the live board comes back
    p.watchdog = setTimeout(function () { finish(p); }, frames.length * ms + 4000);
    stage.addEventListener("click", function (ev) {
      if (ev.target.closest("[data-skip]")) finish(p);
    });
    function step() {
      if (p.done) return;
      if (!layout.isConnected || !stage.isConnected) { finish(p); return; }
      if (p.i >= frames.length) { finish(p); return; }
      var frame = frames[p.i];
      var hadFocus = stage.contains(document.activeElement) || pendingFocus !== null;
      stage.replaceChildren(frame.content.cloneNode(true));
      stage.dataset.seq = frame.dataset.seq;
      markLog(layout, +frame.dataset.seq, +frame.dataset.from);
      if (frame.dataset.title) document.title = frame.dataset.title;
      if (hadFocus) {
        var skip = stage.querySelector("[data-skip]");
        if (skip) skip.focus({ preventScroll: true });
      }
      p.i += 1;
      p.timer = setTimeout(step, ms);
    }
    step();
    return true;
  }

  /* ---------------------------------------------------------------- the log, appended */

  /* A live board's update carries only the log lines after the page's position (template.log-append) and
     keeps the log the page has (hx-preserve): add the lines it does not have yet (an answer that crossed
     another may repeat some), open the rounds that began, and take each round's table as it now stands. */
  function appendLog(layout) {
    var add = layout.querySelector("template.log-append");
    var log = layout.querySelector(".move-log");
    if (!add || !log) return;
    add.parentNode.removeChild(add);
    var body = log.querySelector(".log-body");
    var shown = +(log.dataset.seq || 0);
    if (!body || +add.dataset.seq <= shown) return;
    toArray(add.content.querySelectorAll(".log-round[data-first]")).reverse().forEach(function (round) {
      var lines = toArray(round.querySelectorAll(".log-lines li[data-seq]")).filter(function (li) {
        return +li.dataset.seq > shown;
      });
      var mine = body.querySelector('.log-round[data-first="' + round.dataset.first + '"]');
      if (!mine) {
        toArray(round.querySelectorAll(".log-lines li[data-seq]")).forEach(function (li) {
          if (+li.dataset.seq <= shown) li.parentNode.removeChild(li);
        });
        var empty = body.querySelector(".log-empty");
        if (empty) empty.parentNode.removeChild(empty);
        body.insertBefore(round, body.firstChild);
        return;
      }
      var list = mine.querySelector(".log-lines");
      var have = {};  // lines the round already has ("Show earlier lines" reads the round as it is now)
      toArray(list.querySelectorAll("li[data-seq]")).forEach(function (li) { have[li.dataset.seq] = true; });
      lines.reverse().forEach(function (li) {
        if (!have[li.dataset.seq]) list.insertBefore(li, list.firstChild);
      });
      var head = round.querySelector("summary");
      var table = round.querySelector(".round-summary");
      var oldTable = mine.querySelector(":scope > .round-summary");
      if (table) {
        mine.replaceChild(head, mine.querySelector("summary"));
        if (oldTable) mine.replaceChild(table, oldTable);
        else mine.insertBefore(table, list);
      }
    });
    log.dataset.seq = add.dataset.seq;
    foldOld(log, body);
    var live = layout.querySelector(".board.live");
    var from = live ? live.dataset.from : null;
    toArray(log.querySelectorAll(".log-lines li.is-last")).forEach(function (li) {
      if (li.dataset.move !== from) li.classList.remove("is-last");
    });
  }

  // A page open for hours folds the rounds it appended as its first board folded the older ones: past the
  // newest few (data-inline), a round keeps its title and table and loads its lines when it is opened.
  function foldOld(log, body) {
    var keep = +(log.dataset.inline || 0);
    var url = log.dataset.roundUrl;
    if (!keep || !url || !window.htmx) return;
    toArray(body.querySelectorAll(".log-round[data-index]:not([hx-get])")).slice(keep).forEach(function (round) {
      var list = round.querySelector(".log-lines");
      if (!list) return;
      var loading = document.createElement("li");
      loading.className = "muted";
      loading.textContent = log.dataset.loading || "";
      list.replaceChildren(loading);
      round.setAttribute("hx-get", url + round.dataset.index);
      function arm() {  // the lines load when the reader opens the round
        round.setAttribute("hx-trigger", "toggle once");
        round.setAttribute("hx-target", "find .log-lines");
        round.setAttribute("hx-swap", "innerHTML");
        window.htmx.process(round);
      }
      if (round.open) {  // closing it fires a toggle later: armed after it, or it would load at once
        round.addEventListener("toggle", arm, { once: true });
        round.open = false;
      } else {
        arm();
      }
    });
  }

  function setupBoard(layout) {
    if (layout.dataset.ready) return;
    layout.dataset.ready = "1";
    appendLog(layout);
    var select = layout.querySelector("select.playback-speed");
    if (select) select.value = speed();
    var body = layout.querySelector(".log-body");
    if (body && logScroll) body.scrollTop = logScroll;
    if (!play(layout)) {
      announce(layout.querySelector(".board.live"));
      restoreFocus(layout);
    }
  }

  document.addEventListener("change", function (ev) {
    if (ev.target.matches && ev.target.matches("select.playback-speed")) {
      setSpeed(ev.target.value);
      if (ev.target.value === "off" && playback) finish(playback);
    }
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.key === "Escape" && playback) finish(playback);
  });

  // A move's button is disabled while its request runs (hx-disabled-elt), which takes the focus
  // away: remember it when the request starts.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var elt = ev.detail && ev.detail.elt;
    if (elt && elt === document.activeElement && elt.closest && elt.closest("#board, #replay")) {
      pendingFocus = { key: focusKey(elt) };
    }
  });

  // A move does not scroll the page: while #board's content is swapped it keeps its height (an empty
  // board for a moment would shorten the page and pull the scroll position up), and the position
  // the player had is put back after the swap.
  var keptScroll = null;

  function holdHeight(target) {
    keptScroll = window.scrollY;
    target.style.minHeight = target.offsetHeight + "px";
  }

  function releaseHeight(target) {
    target.style.minHeight = "";
    if (keptScroll !== null && window.scrollY !== keptScroll) window.scrollTo(window.scrollX, keptScroll);
    keptScroll = null;
  }

  document.addEventListener("htmx:afterSettle", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (target && (target.id === "board" || target.id === "replay") && keptScroll !== null) releaseHeight(target);
  });

  document.addEventListener("htmx:beforeSwap", function (ev) {
    var target = ev.detail && ev.detail.target;
    if (!target || (target.id !== "board" && target.id !== "replay")) return;
    if (!ev.detail.shouldSwap) return;  // 204: nothing new, the board (and a playback) stays
    var current = target.querySelector(".board.live");
    var incoming = /class="board live[^"]*" data-seq="(\d+)"/.exec(ev.detail.serverResponse || "");
    if (current && incoming && +incoming[1] < +current.dataset.seq) {
      ev.detail.shouldSwap = false;  // an older answer that arrived late: keep the newer board
      return;
    }
    shownSeq = current ? +current.dataset.seq : 0;
    var active = document.activeElement;
    if (!pendingFocus && active && active !== document.body && target.contains(active)) {
      pendingFocus = { key: focusKey(active) };
    }
    if (!pendingFocus && playback && target.contains(playback.stage) && playback.focused &&
        active === document.body) {
      pendingFocus = { key: null };  // a newer board took over a playback that had the player's focus
    }
    var body = target.querySelector(".log-body");
    logScroll = playback && target.contains(playback.stage) ? playback.scroll : (body ? body.scrollTop : 0);
    if (playback && target.contains(playback.stage)) finish(playback, true);  // the new board takes over
    holdHeight(target);
  });

  /* ---------------------------------------------------------------- why a card cannot be played */

  function explain(ev) {
    var card = ev.target && ev.target.closest ? ev.target.closest("[data-reason]") : null;
    if (!card || !card.getAttribute("data-reason")) return;
    var board = card.closest(".board");
    var out = board ? board.querySelector("[data-reason-out]") : null;
    if (!out) return;
    if (ev.type === "click") ev.preventDefault();
    out.hidden = false;
    out.textContent = card.getAttribute("data-reason");
  }
  document.addEventListener("focusin", explain);
  document.addEventListener("click", explain);

  /* ---------------------------------------------------------------- replay keys */

  document.addEventListener("keydown", function (ev) {
    var replay = document.querySelector("[data-replay]");
    if (!replay || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var button = replay.querySelector('[data-replay-key="' + ev.key + '"]');
    if (!button) return;
    ev.preventDefault();
    var url = button.getAttribute("hx-get");
    // htmx.ajax, not a click: the button of a step just swapped in may not be wired up yet
    if (!button.disabled && url && window.htmx) window.htmx.ajax("GET", url, { target: "#replay", source: button });
  });

  var replayArrived = false;

  function setupReplay(root) {
    if (!replayArrived) {
      // on arrival the focus is on the board: the keys work at once, and a screen reader starts there
      replayArrived = true;
      var board = root.querySelector(".board.replay");
      if (board && !pendingFocus) { board.focus({ preventScroll: true }); return; }
    }
    if (!pendingFocus) return;
    var wanted = pendingFocus;
    pendingFocus = null;
    var target = wanted.key ? root.querySelector('[data-focus="' + wanted.key + '"]') : null;
    if (target && target.disabled) target = root.querySelector("[data-replay-key]:not([disabled])");
    if (target) target.focus({ preventScroll: true });
  }

  /* ---------------------------------------------------------------- start */

  function init(elt) {
    var root = elt && elt.querySelectorAll ? elt : document;
    var layouts = root.matches && root.matches(".play-layout") ? [root] : toArray(root.querySelectorAll(".play-layout"));
    layouts.forEach(function (layout) {
      if (layout.closest("#replay")) return;
      setupBoard(layout);
    });
    var controls = root.matches && root.matches(".replay-controls") ? root : root.querySelector(".replay-controls");
    if (controls) setupReplay(controls.parentNode);
  }

  function start() {
    if (window.htmx && window.htmx.onLoad) window.htmx.onLoad(init);
    else init(document);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
