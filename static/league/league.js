// League pages. The live part of a running tournament's page is replaced every few seconds
// (htmx, outerHTML): keep where the reader had scrolled the standings and the bracket sideways,
// so that on a phone they do not jump back to the left edge on every refresh.
// Boxes to keep are marked data-keep-scroll="<name>" (unique on the page).
(function () {
  "use strict";
  var saved = {};

  document.addEventListener("htmx:beforeSwap", function (event) {
    saved = {};
    var target = event.detail && event.detail.target;
    if (!target || !target.querySelectorAll) return;
    target.querySelectorAll("[data-keep-scroll]").forEach(function (box) {
      if (box.scrollLeft) saved[box.dataset.keepScroll] = box.scrollLeft;
    });
  });

  // htmx:load fires on the new content once it is in the document
  document.addEventListener("htmx:load", function (event) {
    var root = event.target;
    if (!root || !root.querySelectorAll) return;
    root.querySelectorAll("[data-keep-scroll]").forEach(function (box) {
      var left = saved[box.dataset.keepScroll];
      if (left) box.scrollLeft = left;
    });
  });
})();
