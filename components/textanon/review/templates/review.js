// textanon review report: sortable tables and a details panel. Everything essential works without it.
(function () {
  "use strict";
  function cellValue(row, key) {
    var cell = row.querySelector('td[data-key="' + key + '"]');
    if (!cell) return "";
    var v = cell.getAttribute("data-sort");
    if (v === null) v = cell.textContent.trim();
    var num = parseFloat(v);
    return (v !== "" && !isNaN(num) && isFinite(v)) ? num : v.toLowerCase();
  }
  function sortTable(table, key, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, key), y = cellValue(b, key);
      var c = (typeof x === "number" && typeof y === "number") ? x - y : String(x).localeCompare(String(y));
      return descending ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    table.setAttribute("data-sorted", (descending ? "-" : "") + key);
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("th[data-key]").forEach(function (th) {
      th.addEventListener("click", function () {
        var key = th.getAttribute("data-key");
        sortTable(table, key, table.getAttribute("data-sorted") === key);
      });
    });
  });
  var m = /[#&]sort=(-?)([\w-]+)/.exec(location.hash);
  var first = document.querySelector("table.sortable");
  if (m && first) sortTable(first, m[2], m[1] === "-");

  var panel = document.getElementById("panel");
  if (!panel) return;
  function show(n) {
    var row = document.getElementById("d" + n);
    if (!row) return;
    document.querySelectorAll("a.span.active").forEach(function (a) { a.classList.remove("active"); });
    var span = document.getElementById("s" + n);
    if (span) span.classList.add("active");
    var body = panel.querySelector(".body");
    body.innerHTML = "";
    var title = document.createElement("div");
    title.className = "title";
    title.textContent = "#" + n + " " + row.querySelector('td[data-key="text"]').textContent;
    body.appendChild(title);
    var dl = document.createElement("dl");
    ["label", "entity", "source", "ic", "decision"].forEach(function (k) {
      var cell = row.querySelector('td[data-key="' + k + '"]');
      if (!cell) return;
      var dt = document.createElement("dt"), dd = document.createElement("dd");
      dt.textContent = k; dd.textContent = cell.textContent.trim();
      dl.appendChild(dt); dl.appendChild(dd);
    });
    body.appendChild(dl);
    var why = row.querySelector('td[data-key="why"]');
    if (why) body.appendChild(why.querySelector("ul").cloneNode(true));
    panel.setAttribute("data-n", n);
    panel.hidden = false;
  }
  document.querySelectorAll("a.span").forEach(function (a) {
    a.addEventListener("click", function (ev) { ev.preventDefault(); show(a.getAttribute("data-n")); });
  });
  panel.querySelector("button").addEventListener("click", function () { panel.hidden = true; });
  // #s12 opens the details of span 12 (and scrolls to it); #panel=12 opens them without scrolling
  var h = /^#(?:s|panel=)(\d+)$/.exec(location.hash);
  if (h) show(h[1]);
})();
