// The admin's league and tournament forms: the terms a league's tournaments play.
// - Choosing a league on a new tournament fills in that league's match options (unless the organiser
//   has typed others), says them in words, and names the league's clock and timeout rule in the
//   default choices ("The league's clock: 1 day a move"). The leagues' terms come with the options
//   of the league select (data-options, data-options-words, data-clock-words, data-rule-words).
// - The clock is a choice; the JSON field below it is for "another clock" only, so it shows only then
//   (and starts from the clock chosen before, to edit).
// No inline script (CSP): this file is the forms' Media.
(function () {
  "use strict";

  function row(field) {
    return field && field.closest(".form-row, .fieldBox") || null;
  }

  function fillTemplate(template, value) {
    return template ? template.replace("%(clock)s", value).replace("%(rule)s", value) : value;
  }

  function initClock() {
    var choice = document.querySelector("select[data-clock-choice]");
    var json = document.querySelector("input[data-clock-json]");
    if (!choice || !json) return;
    var presets = {};
    try { presets = JSON.parse(choice.dataset.clocks || "{}"); } catch (e) { presets = {}; }
    var previous = choice.value;
    var jsonRow = row(json);

    function show() {
      var custom = choice.value === "custom";
      if (custom && !json.value.trim() && presets[previous]) {
        json.value = JSON.stringify(presets[previous]);
      }
      if (jsonRow && !jsonRow.classList.contains("errors")) jsonRow.hidden = !custom;
      previous = choice.value;
    }
    choice.addEventListener("change", show);
    show();
  }

  function initLeague() {
    var league = document.getElementById("id_league");
    var options = document.getElementById("id_options");
    // a new tournament only: a tournament's own options are never replaced
    if (!league || league.tagName !== "SELECT" || !options || !options.hasAttribute("data-fill-from-league")) return;
    var words = document.querySelector("[data-options-words-for='options']");
    var clock = document.querySelector("select[data-clock-choice]");
    var rule = document.getElementById("id_timeout_rule");
    var first = league.options[league.selectedIndex];
    // what was filled in for a league (replaced when another league is chosen), not what was typed
    var filled = first && first.dataset.options === options.value.trim() ? options.value.trim() : "";

    function update() {
      var chosen = league.options[league.selectedIndex];
      if (!chosen || !chosen.value || chosen.dataset.options === undefined) return;
      var current = options.value.trim();
      if (!current || current === filled) {
        options.value = chosen.dataset.options;
        filled = chosen.dataset.options;
      }
      if (words && options.value.trim() === chosen.dataset.options) {
        words.textContent = chosen.dataset.optionsWords || "";
      } else if (words) {
        words.textContent = "";
      }
      var own = clock && clock.querySelector("option[value='league']");
      if (own && clock.dataset.leagueLabel) own.textContent = fillTemplate(clock.dataset.leagueLabel, chosen.dataset.clockWords);
      var asLeague = rule && rule.dataset.leagueLabel && rule.querySelector("option[value='']");
      if (asLeague) asLeague.textContent = fillTemplate(rule.dataset.leagueLabel, chosen.dataset.ruleWords);
    }
    league.addEventListener("change", update);
    options.addEventListener("input", function () {
      var chosen = league.options[league.selectedIndex];
      if (words && chosen && chosen.dataset.options !== undefined) {
        words.textContent = options.value.trim() === chosen.dataset.options ? (chosen.dataset.optionsWords || "") : "";
      }
    });
    update();
  }

  function init() {
    initClock();
    initLeague();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
