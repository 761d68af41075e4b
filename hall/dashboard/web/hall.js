// Live updates for the hall dashboard: the server's event stream names each table that changed,
// and the page fetches that table's card (overview) or its details (table page) again. The
// running clocks count down between updates.
"use strict";
(function () {
  var dot = document.getElementById("live");
  function refresh(n) {
    var page = document.getElementById("table");
    if (page) {
      if (page.dataset.table !== String(n)) return;
      fetch("/table/" + n + "/live").then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
        if (html !== null) { page.innerHTML = html; stamp(page); }
      });
      return;
    }
    var grid = document.getElementById("tables");
    if (!grid) return;
    fetch("/card/" + n).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html === null) return;
      var box = document.createElement("div");
      box.innerHTML = html;
      var card = box.firstElementChild;
      var old = document.getElementById("t-" + n);
      if (old) { old.replaceWith(card); } else {
        var empty = grid.querySelector(".empty");
        if (empty) empty.remove();
        var after = Array.prototype.find.call(grid.children, function (c) { return Number(c.dataset.table) > n; });
        grid.insertBefore(card, after || null);
      }
      stamp(card);
    });
  }
  function stamp(root) {
    var now = Date.now();
    root.querySelectorAll(".clk").forEach(function (c) { c.dataset.t0 = now; });
  }
  function fmt(ms) {
    var s = Math.max(0, ms) / 1000;
    if (s < 10) return s.toFixed(1);
    s = Math.floor(s);
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    var mm = h > 0 ? String(m).padStart(2, "0") : String(m);
    return (h > 0 ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
  }
  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clk[data-run='1']").forEach(function (c) {
      c.textContent = fmt(Number(c.dataset.left) - (now - Number(c.dataset.t0 || now)));
    });
  }
  stamp(document);
  setInterval(tick, 200);
  var es = new EventSource("/events");
  es.onopen = function () { if (dot) dot.classList.add("on"); };
  es.onerror = function () { if (dot) dot.classList.remove("on"); };
  es.addEventListener("table", function (e) { refresh(Number(e.data)); });
})();
