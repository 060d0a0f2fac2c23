/* cardleague: people at the table. No inline scripts (Content-Security-Policy: script-src 'self').

   - Randomness for the shuffle: a form with data-entropy (joining a match, accepting an invitation,
     starting one) gets, as it is sent, 16 random bytes from this browser (crypto.getRandomValues)
     in its "entropy" field, as 32 hex digits. The server cannot foresee them; without script the
     field stays empty and the server contributes for the seat (the record says so).
   - Clocks: an element with data-deadline (ISO time) counts down to it, "m:ss" (or days and hours
     for correspondence), marked .low in the last 10 seconds and .over after it.
   - Confirmations: a button with data-confirm-open reveals its form's hidden confirmation.
*/
(function () {
  "use strict";

  function hex(bytes) {
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
    return out;
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form || !form.hasAttribute || !form.hasAttribute("data-entropy")) return;
    var field = form.querySelector("input[name=entropy]");
    if (!field || !(window.crypto && window.crypto.getRandomValues)) return;
    field.value = hex(window.crypto.getRandomValues(new Uint8Array(16)));
  }, true);

  function left(ms) {
    if (ms <= 0) return "0:00";
    var s = Math.floor(ms / 1000);
    if (s >= 86400) return Math.floor(s / 86400) + "d " + Math.floor((s % 86400) / 3600) + "h";
    if (s >= 3600) return Math.floor(s / 3600) + "h " + ("0" + Math.floor((s % 3600) / 60)).slice(-2) + "m";
    return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
  }

  function tick() {
    var now = Date.now();
    Array.prototype.forEach.call(document.querySelectorAll("[data-deadline]"), function (el) {
      var at = Date.parse(el.getAttribute("data-deadline"));
      if (isNaN(at)) return;
      var ms = at - now;
      var text = left(ms);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", ms > 0 && ms < 10000);
      el.classList.toggle("over", ms <= 0);
    });
  }

  document.addEventListener("click", function (ev) {
    var opener = ev.target && ev.target.closest ? ev.target.closest("[data-confirm-open]") : null;
    if (!opener) return;
    var box = document.getElementById(opener.getAttribute("data-confirm-open"));
    if (box) {
      box.hidden = false;
      var focus = box.querySelector("button");
      if (focus) focus.focus();
    }
  });

  tick();
  setInterval(tick, 1000);
})();
