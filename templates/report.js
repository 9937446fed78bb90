/* trnready report: checklist state (localStorage), progress, filters. Reads everything from the DOM. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.className = root.className.replace(/\bno-js\b/, "js");
  var body = document.body;
  // One entry per scanned root; inside, the fingerprints of the occurrences ticked off. Fingerprints
  // do not depend on line numbers, so ticks survive a re-scan after unrelated edits.
  var KEY = "trnready:v1:" + (body.getAttribute("data-root") || "");
  var done = load();

  function load() {
    try {
      var v = JSON.parse(window.localStorage.getItem(KEY) || "{}");
      return v && typeof v === "object" && !Array.isArray(v) ? v : {};
    } catch (e) {
      return {};
    }
  }
  function save() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(done));
    } catch (e) { /* private mode or quota: ticks last for this page only */ }
  }

  var items = [];
  var byFp = Object.create(null);
  var articles = document.querySelectorAll("article.item");
  for (var i = 0; i < articles.length; i++) {
    var el = articles[i];
    var item = {
      el: el, cb: el.querySelector("input.icb"), details: el.querySelector("details.occs"),
      sev: el.getAttribute("data-sev"), cat: el.getAttribute("data-cat"),
      text: (el.getAttribute("data-rule") + " " + el.querySelector(".ititle").textContent).toLowerCase(),
      occs: []
    };
    var lis = el.querySelectorAll("li.occ");
    for (var j = 0; j < lis.length; j++) {
      var li = lis[j];
      var cb = li.querySelector("input.ocb");
      var occ = { li: li, cb: cb, fp: cb.value, item: item, path: li.querySelector(".loc").textContent.toLowerCase() };
      cb.checked = done[occ.fp] === 1;
      item.occs.push(occ);
      (byFp[occ.fp] = byFp[occ.fp] || []).push(occ);
    }
    item.el.__trn = item;
    items.push(item);
  }
  var total = 0;
  items.forEach(function (it) { total += it.occs.length; refreshItem(it); });

  var progress = document.getElementById("progress");
  var progressText = document.getElementById("progress-text");
  function refreshItem(it) {
    var n = 0;
    for (var k = 0; k < it.occs.length; k++) {
      var c = it.occs[k].cb.checked;
      it.occs[k].li.classList.toggle("done", c);
      if (c) n++;
    }
    it.doneCount = n;
    it.cb.checked = n > 0 && n === it.occs.length;
    it.cb.indeterminate = n > 0 && n < it.occs.length;
    it.el.classList.toggle("done", it.cb.checked);
  }
  function refreshProgress() {
    if (!progress) return;
    var n = 0, rulesDone = 0;
    items.forEach(function (it) { n += it.doneCount; if (it.cb.checked) rulesDone++; });
    progress.max = total || 1;
    progress.value = n;
    var pct = total ? Math.round(100 * n / total) : 100;
    progress.textContent = pct + "%";
    progressText.textContent = n + " of " + total + " done (" + pct + "%) · " + rulesDone + " of " + items.length + " rules";
  }
  function setOcc(fp, checked) {
    if (checked) done[fp] = 1; else delete done[fp];
    (byFp[fp] || []).forEach(function (o) { o.cb.checked = checked; });
  }

  var list = document.getElementById("checklist");
  if (list) {
    list.addEventListener("change", function (ev) {
      var t = ev.target, touched = [];
      if (t.classList.contains("ocb")) {
        setOcc(t.value, t.checked);
        (byFp[t.value] || []).forEach(function (o) { touched.push(o.item); });
      } else if (t.classList.contains("icb")) {
        var it = t.closest("article.item").__trn;
        it.occs.forEach(function (o) {
          setOcc(o.fp, t.checked);
          (byFp[o.fp] || []).forEach(function (x) { touched.push(x.item); });
        });
      } else {
        return;
      }
      touched.forEach(refreshItem);
      refreshProgress();
      save();
      if (hideDone && hideDone.checked) applyFilters();
    });
  }
  window.addEventListener("storage", function (ev) {
    if (ev.key !== KEY) return;
    done = load();
    items.forEach(function (it) {
      it.occs.forEach(function (o) { o.cb.checked = done[o.fp] === 1; });
      refreshItem(it);
    });
    refreshProgress();
    applyFilters();
  });

  // Filters: severity, category, text (rule id, title or path), hide done.
  var sevBoxes = document.querySelectorAll('input[name="sev"]');
  var catSel = document.getElementById("f-cat");
  var textBox = document.getElementById("f-text");
  var hideDone = document.getElementById("f-hide-done");
  var status = document.getElementById("f-status");
  var empty = document.getElementById("f-empty");
  var sections = document.querySelectorAll("section.cat");
  var openedByFilter = [];

  function applyFilters() {
    if (!catSel) return;
    var sevs = {};
    for (var s = 0; s < sevBoxes.length; s++) if (sevBoxes[s].checked) sevs[sevBoxes[s].value] = true;
    var cat = catSel.value, q = textBox.value.trim().toLowerCase(), hide = hideDone.checked;
    var shownItems = 0, shownOccs = 0, filtering = !!(q || cat || hide || Object.keys(sevs).length < sevBoxes.length);
    openedByFilter.forEach(function (d) { d.open = false; });
    openedByFilter = [];
    items.forEach(function (it) {
      var base = sevs[it.sev] === true && (!cat || it.cat === cat);
      var ruleHit = !q || it.text.indexOf(q) !== -1;
      var visible = 0;
      for (var k = 0; k < it.occs.length; k++) {
        var o = it.occs[k];
        var show = base && (ruleHit || o.path.indexOf(q) !== -1) && !(hide && o.cb.checked);
        if (o.li.hidden === show) o.li.hidden = !show;
        if (show) visible++;
      }
      var showItem = visible > 0;
      if (it.el.hidden === showItem) it.el.hidden = !showItem;
      if (showItem) { shownItems++; shownOccs += visible; }
      // A path match inside a collapsed list would be invisible: open it while the filter holds.
      if (showItem && q && !ruleHit && it.details && !it.details.open) {
        it.details.open = true;
        openedByFilter.push(it.details);
      }
    });
    for (var c = 0; c < sections.length; c++) {
      var any = sections[c].querySelector("article.item:not([hidden])") !== null;
      if (sections[c].hidden === any) sections[c].hidden = !any;
    }
    if (empty) empty.hidden = shownItems !== 0;
    status.textContent = filtering ? "Showing " + shownItems + " of " + items.length + " rules, " + shownOccs + " of " + total + " occurrences." : "";
  }
  var timer = 0;
  if (catSel) {
    for (var s = 0; s < sevBoxes.length; s++) sevBoxes[s].addEventListener("change", applyFilters);
    catSel.addEventListener("change", applyFilters);
    hideDone.addEventListener("change", applyFilters);
    textBox.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(applyFilters, items.length > 200 ? 150 : 40);
    });
  }

  // Print everything: open collapsed sections for the printout, restore afterwards.
  var openedForPrint = [];
  window.addEventListener("beforeprint", function () {
    var ds = document.querySelectorAll("details:not([open])");
    for (var d = 0; d < ds.length; d++) { ds[d].open = true; openedForPrint.push(ds[d]); }
  });
  window.addEventListener("afterprint", function () {
    openedForPrint.forEach(function (d) { d.open = false; });
    openedForPrint = [];
  });

  refreshProgress();
  root.setAttribute("data-ready", "1");
  window.trnreadyReady = window.performance ? performance.now() : 0;
})();
