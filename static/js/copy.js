/* cardleague: a "copy" button for a text shown once (a bot's token). The button names the element to copy
   (data-copy="<id>") and carries its own words (data-copied, data-selected: the page's language). Where
   the clipboard is out of reach (plain HTTP on another host), the text is selected for Ctrl+C instead.
   Without this script the button stays hidden and the text is there to select by hand. */
(function () {
  "use strict";

  function select(element) {
    var range = document.createRange();
    range.selectNodeContents(element);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function setUp(button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    if (!target) return;
    var status = button.parentNode.querySelector(".copy-status");
    function say(text) { if (status) status.textContent = text; }
    button.hidden = false;
    button.addEventListener("click", function () {
      var text = target.textContent.trim();
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(
          function () { say(button.getAttribute("data-copied")); },
          function () { select(target); say(button.getAttribute("data-selected")); });
      } else {
        select(target);
        say(button.getAttribute("data-selected"));
      }
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
