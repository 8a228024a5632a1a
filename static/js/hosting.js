// The host panel (templates/tables/_hosting.html) is asked again every 15 s and after frames
// that may change it; neither the asking nor the swap happens while the host is typing in one
// of its fields (a swap would wipe what they typed): the next refresh brings it.
(function () {
  "use strict";

  window.hostIsTyping = function () {
    return document.activeElement.matches("#hosting input:not([readonly]), #hosting select");
  };
})();
