/* cardleague: times in the reader's own time zone. The browser's IANA zone ("Europe/Riga",
   "America/New_York") is kept in the cardleague_tz cookie; the server shows times in it from the next
   page on (cardleague.middleware.ReaderTimeZoneMiddleware; a zone it does not know leaves the club's).
   Loaded by every page, the admin's and the sign-in page too (no inline script: CSP). */
(function () {
  "use strict";

  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (e) {
    return;
  }
  if (!zone || !/^[A-Za-z0-9_+\-\/]{1,64}$/.test(zone)) return;
  var cookie = "cardleague_tz=" + zone;
  if (("; " + document.cookie + ";").indexOf("; " + cookie + ";") !== -1) return;
  document.cookie = cookie + "; path=/; max-age=31536000; SameSite=Lax" +
    (window.location.protocol === "https:" ? "; Secure" : "");
})();
