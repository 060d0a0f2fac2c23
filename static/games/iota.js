/* IOTA: pick hand cards and the lit cells where they may go; the play is posted only when it is
   exactly one of the legal plays ("iota-plays", each with its label in words and its score).
   Marking cards and passing puts them under the stock ("iota-passes"). Cells are buttons. The grid's
   first row and column carry the coordinates (x along the top, y down the side) that the log and the
   cells' names use, redrawn with the lit cells. */
(function () {
  "use strict";

  function toArray(list) { return Array.prototype.slice.call(list); }

  function setup(root) {
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var playsEl = root.querySelector("#iota-plays");
    if (!playsEl) return;
    var msg = root.dataset;
    var plays = JSON.parse(playsEl.textContent);
    var passesEl = root.querySelector("#iota-passes");
    var passes = passesEl ? JSON.parse(passesEl.textContent) : [];
    var grid = root.querySelector("[data-iota-grid]");
    var hint = root.querySelector("[data-iota-hint]");
    var preview = root.querySelector("[data-iota-preview]");
    var confirmBtn = root.querySelector("[data-iota-confirm]");
    var clearBtn = root.querySelector("[data-iota-clear]");
    var exchangeBtn = root.querySelector("[data-iota-exchange]");
    var markBtn = root.querySelector("[data-iota-mark]");
    var handBtns = toArray(root.querySelectorAll(".iota-hand button.card"));
    var placed = [];        // [{card, x, y}] picked so far
    var selected = null;    // the hand card being placed
    var marking = false;    // choosing cards to put under the stock
    var marked = [];
    var current = null, exchange = null;

    function key(cards) {
      return cards.map(function (p) { return p.card + "@" + p.x + "," + p.y; }).sort().join(" ");
    }
    function has(move, p) {
      return move.cards.some(function (q) { return q.card === p.card && q.x === p.x && q.y === p.y; });
    }
    function extendsPlaced(m) { return placed.every(function (p) { return has(m.move, p); }); }
    function targets() {
      var out = {};
      if (!selected) return out;
      plays.forEach(function (m) {
        if (!extendsPlaced(m)) return;
        m.move.cards.forEach(function (q) { if (q.card === selected) out[q.x + "," + q.y] = q; });
      });
      return out;
    }
    function handButton(code) {
      return handBtns.filter(function (b) { return b.dataset.card === code; })[0];
    }
    function tile(code) {
      var source = handButton(code);
      var el = document.createElement("button");
      el.type = "button";
      el.className = (source ? source.className : "card") + " tentative";
      el.innerHTML = source ? source.innerHTML : "";
      el.classList.remove("used", "marked");
      return el;
    }
    function submit(move) {
      htmx.ajax("POST", root.dataset.moveUrl, { target: "#board",
        values: { move: JSON.stringify(move), expected_seq: root.dataset.seq } });
    }
    function cellName(x, y) { return "(" + x + ", " + y + ")"; }

    function render() {
      toArray(grid.querySelectorAll(".tentative, .target")).forEach(function (el) { el.remove(); });
      var spots = targets();
      placed.forEach(function (p, i) {
        var el = tile(p.card);
        var name = handButton(p.card) ? handButton(p.card).getAttribute("aria-label") : p.card;
        el.dataset.x = p.x; el.dataset.y = p.y;
        el.setAttribute("aria-label", msg.msgTakeBack + ": " + name + " " + cellName(p.x, p.y));
        el.title = el.getAttribute("aria-label");
        el.addEventListener("click", function () { placed.splice(i, 1); render(); });
        grid.appendChild(el);
      });
      Object.keys(spots).forEach(function (k) {
        var q = spots[k];
        var el = document.createElement("button");
        el.type = "button"; el.className = "target";
        el.dataset.x = q.x; el.dataset.y = q.y;
        el.setAttribute("aria-label", msg.msgCell + " " + cellName(q.x, q.y));
        el.title = cellName(q.x, q.y);
        el.addEventListener("click", function () {
          placed.push({ card: selected, x: q.x, y: q.y });
          selected = null;
          render();
          var next = handBtns.filter(function (b) { return !b.classList.contains("used"); })[0];
          if (confirmBtn && !confirmBtn.disabled) confirmBtn.focus(); else if (next) next.focus();
        });
        grid.appendChild(el);
      });
      layout();
      handBtns.forEach(function (b) {
        var code = b.dataset.card;
        b.setAttribute("aria-pressed", code === selected || marked.indexOf(code) >= 0 ? "true" : "false");
        b.classList.toggle("used", placed.some(function (p) { return p.card === code; }));
        b.classList.toggle("marked", marked.indexOf(code) >= 0);
      });
      current = placed.length ? plays.filter(function (m) { return key(m.move.cards) === key(placed); })[0] || null : null;
      confirmBtn.disabled = !current;
      clearBtn.disabled = !placed.length && !selected;
      preview.hidden = !placed.length;
      preview.textContent = current ? current.label : msg.msgIncomplete;
      exchange = marking ? passes.filter(function (m) {
        return (m.move["return"] || []).slice().sort().join(" ") === marked.slice().sort().join(" ");
      })[0] || null : null;
      if (exchangeBtn) {
        exchangeBtn.hidden = !marking;
        exchangeBtn.disabled = !exchange || !marked.length;
      }
      if (markBtn) markBtn.textContent = marking ? msg.msgStop : msg.msgMarking;
      if (marking) hint.textContent = msg.msgMark;
      else if (selected && !Object.keys(spots).length) hint.textContent = msg.msgNowhere;
      else if (selected) hint.textContent = msg.msgPlace;
      else hint.textContent = msg.msgPick;
    }
    function axis(cls, attr, n, col, row) {
      var el = document.createElement("span");
      el.className = "axis " + cls;
      el.setAttribute(attr, n);
      el.setAttribute("aria-hidden", "true");
      el.textContent = n;
      el.style.gridColumn = col;
      el.style.gridRow = row;
      grid.appendChild(el);
    }
    function layout() {
      // the cells (and the lit targets) with one free cell around them; the coordinates along the edges
      toArray(grid.querySelectorAll(".axis")).forEach(function (el) { el.remove(); });
      var cells = toArray(grid.children);
      var xs = cells.map(function (el) { return +el.dataset.x; });
      var ys = cells.map(function (el) { return +el.dataset.y; });
      var x0 = Math.min.apply(null, xs) - 1, x1 = Math.max.apply(null, xs) + 1;
      var y0 = Math.min.apply(null, ys) - 1, y1 = Math.max.apply(null, ys) + 1;
      grid.style.gridTemplateColumns = "var(--axis) repeat(" + (x1 - x0 + 1) + ", var(--cell))";
      grid.style.gridTemplateRows = "var(--axis) repeat(" + (y1 - y0 + 1) + ", var(--cell))";
      cells.forEach(function (el) {
        el.style.gridColumn = (+el.dataset.x - x0 + 2);
        el.style.gridRow = (+el.dataset.y - y0 + 2);
      });
      for (var x = x0; x <= x1; x++) axis("ax-x", "data-axis-x", x, x - x0 + 2, 1);
      for (var y = y0; y <= y1; y++) axis("ax-y", "data-axis-y", y, 1, y - y0 + 2);
    }
    handBtns.forEach(function (b) {
      b.addEventListener("click", function () {
        var code = b.dataset.card;
        if (marking) {
          var i = marked.indexOf(code);
          if (i >= 0) marked.splice(i, 1); else marked.push(code);
        } else if (!placed.some(function (p) { return p.card === code; })) {
          selected = selected === code ? null : code;
        }
        render();
      });
    });
    confirmBtn.addEventListener("click", function () { if (current) submit(current.move); });
    clearBtn.addEventListener("click", function () { placed = []; selected = null; render(); });
    if (exchangeBtn) exchangeBtn.addEventListener("click", function () { if (exchange) submit(exchange.move); });
    if (markBtn) markBtn.addEventListener("click", function () {
      marking = !marking; marked = []; placed = []; selected = null; render();
    });
    render();
  }

  function init(elt) {
    var root = elt && elt.querySelectorAll ? elt : document;
    var boards = root.matches && root.matches("[data-iota]") ? [root] : toArray(root.querySelectorAll("[data-iota]"));
    boards.forEach(setup);
  }

  function start() {
    if (window.htmx && window.htmx.onLoad) window.htmx.onLoad(init); else init(document);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
