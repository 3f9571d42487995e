// The filters: a case shows when its verdict and its tier are both ticked.
// The page's fragment (#status=FAILURE,WARNING&tier=quirk) sets the boxes
// on load, and ticking one writes it back, so a filtered view is a link.
(function () {
  var boxes = document.querySelectorAll("input[data-filter]");
  function apply() {
    var on = {status: {}, tier: {}};
    boxes.forEach(function (b) { if (b.checked) on[b.dataset.filter][b.value] = true; });
    var shown = 0;
    document.querySelectorAll("section.case").forEach(function (s) {
      var show = on.status[s.dataset.status] && on.tier[s.dataset.tier];
      s.hidden = !show;
      if (show) shown++;
    });
    document.getElementById("shown").textContent = String(shown);
  }
  function fromHash() {
    var want = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) want[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)).split(",");
    });
    boxes.forEach(function (b) {
      var w = want[b.dataset.filter];
      b.checked = !w || w.indexOf(b.value) >= 0;
    });
    apply();
  }
  function toHash() {
    var parts = [];
    ["status", "tier"].forEach(function (f) {
      var all = true, on = [];
      boxes.forEach(function (b) {
        if (b.dataset.filter !== f) return;
        if (b.checked) on.push(b.value); else all = false;
      });
      if (!all) parts.push(f + "=" + on.join(","));
    });
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
    apply();
  }
  boxes.forEach(function (b) { b.addEventListener("change", toHash); });
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
