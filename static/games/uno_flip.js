/* uno_flip: its board needs nothing beyond static/js/app.js (playback, focus, announcements);
   the file exists so that every game's page loads its own script from the same place. */
