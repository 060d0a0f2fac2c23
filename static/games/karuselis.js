/* Karuselis: pick a hand card, then the table cards or builds it takes or builds on; only the
   legal moves that match the selection stay shown (all of them without this script). The pick
   survives a poll that brings nothing new for this seat (sessionStorage, keyed by position).
   A hand card with no move at all (it can neither capture nor build, and trailing is forbidden)
   says why in the hint, the engine's reason in words (data-reason), when picked or focused. */
(function () {
  "use strict";
  var FEW = 8, KEY = "karuselis-pick";

  function toArray(list) { return Array.prototype.slice.call(list); }
  function norm(words) { return words.filter(Boolean).sort().join(" "); }

  function setup(board) {
    if (board.dataset.ready) return;
    board.dataset.ready = "1";
    var moves = toArray(board.querySelectorAll(".k-move"));
    if (!moves.length) return;
    var items = toArray(board.querySelectorAll("button.item"));
    var hint = board.querySelector(".k-hint");
    var pick = { seq: board.dataset.seq, card: null, take: [] };
    try {
      var saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
      if (saved && saved.seq === pick.seq) pick = saved;
    } catch (e) { /* no storage: start afresh */ }

    function refresh() {
      var take = norm(pick.take);
      var mine = moves.filter(function (b) { return b.dataset.card === pick.card; });
      var shown;
      if (!pick.card) shown = moves.length <= FEW ? moves : [];
      else if (take) shown = mine.filter(function (b) { return norm(b.dataset.take.split(" ")) === take; });
      else shown = mine.length <= FEW ? mine : mine.filter(function (b) { return !b.dataset.take.trim(); });
      moves.forEach(function (b) { b.hidden = shown.indexOf(b) < 0; });
      var reach = {};
      mine.forEach(function (b) { b.dataset.take.split(" ").forEach(function (x) { if (x) reach[x] = true; }); });
      items.forEach(function (el) {
        var on = el.dataset.card ? el.dataset.card === pick.card : pick.take.indexOf(el.dataset.take) >= 0;
        el.setAttribute("aria-pressed", on ? "true" : "false");
        if (el.dataset.take) el.classList.toggle("is-reachable", !!reach[el.dataset.take]);
      });
      var picked = pick.card ? items.filter(function (el) { return el.dataset.card === pick.card; })[0] : null;
      if (!pick.card) hint.textContent = hint.dataset.pick;
      else if (!mine.length && picked && picked.dataset.reason) hint.textContent = picked.dataset.reason;
      else if (take && !shown.length) hint.textContent = hint.dataset.none;
      else if (shown.length < mine.length) hint.textContent = hint.dataset.many.replace("%(n)s", mine.length);
      else hint.textContent = "";
      try { sessionStorage.setItem(KEY, JSON.stringify(pick)); } catch (e) { /* ignore */ }
    }

    function choose(el) {
      if (el.dataset.card) {
        pick.card = pick.card === el.dataset.card ? null : el.dataset.card;
        pick.take = [];
      } else if (pick.card) {
        var at = pick.take.indexOf(el.dataset.take);
        if (at >= 0) pick.take.splice(at, 1); else pick.take.push(el.dataset.take);
      }
      refresh();
    }

    items.forEach(function (el) { el.addEventListener("click", function () { choose(el); }); });
    // a card with no move says why as soon as it is focused (nothing is picked by focusing)
    items.forEach(function (el) {
      if (!el.dataset.reason) return;
      el.addEventListener("focus", function () { if (!pick.card) hint.textContent = el.dataset.reason; });
      el.addEventListener("blur", function () { if (!pick.card) hint.textContent = hint.dataset.pick; });
    });
    refresh();
  }

  function init(elt) {
    var root = elt && elt.querySelectorAll ? elt : document;
    var boards = root.matches && root.matches("[data-k-board]") ? [root] : toArray(root.querySelectorAll("[data-k-board]"));
    boards.forEach(setup);
  }

  function start() {
    if (window.htmx && window.htmx.onLoad) window.htmx.onLoad(init); else init(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
