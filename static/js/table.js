/* cardleague: people at the table. No inline scripts (Content-Security-Policy: script-src 'self').

   - Randomness for the shuffle: a form with data-entropy (joining a match, accepting an invitation,
     starting one) gets, as it is sent, 16 random bytes from this browser (crypto.getRandomValues)
     in its "entropy" field, as 32 hex digits. The server cannot foresee them; without script the
     field stays empty and the server contributes for the seat (the record says so).
   - Clocks: an element with data-deadline (ISO time) counts down to it, "m:ss" under an hour, else
     days and hours or hours and minutes in the page's language (Intl.NumberFormat's units, with
     <html lang>: "23 часа, 54 минуты"; the server renders the same words first), marked .low in the
     last 10 seconds and .over after it. With data-allowance (the move's seconds), the turn banner's
     clock (.turn-clock) turns amber under 30% of it and red under 10 seconds or 10%.
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

  var LANG = document.documentElement.getAttribute("lang") || "en";
  var units = {};

  function unit(name, n) {
    try {
      if (!units[name]) units[name] = new Intl.NumberFormat(LANG, { style: "unit", unit: name, unitDisplay: "long" });
      return units[name].format(n);
    } catch (e) {
      return n + name.charAt(0);  // no Intl units in this browser: "23h"
    }
  }

  function left(ms) {
    if (ms <= 0) return "0:00";
    var s = Math.floor(ms / 1000);
    var parts;
    if (s >= 86400) parts = [unit("day", Math.floor(s / 86400)), Math.floor((s % 86400) / 3600) && unit("hour", Math.floor((s % 86400) / 3600))];
    else if (s >= 3600) parts = [unit("hour", Math.floor(s / 3600)), Math.floor((s % 3600) / 60) && unit("minute", Math.floor((s % 3600) / 60))];
    else return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2);
    return parts.filter(Boolean).join(", ");
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
      var allowance = parseFloat(el.getAttribute("data-allowance") || "");
      var banner = el.closest(".turn-clock");
      if (banner && allowance > 0) {
        var level = ms < Math.max(10, allowance * 0.1) * 1000 ? "urgent" : ms < allowance * 300 ? "low" : "ok";
        ["ok", "low", "urgent"].forEach(function (l) { banner.classList.toggle("clock-" + l, l === level); });
      }
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
