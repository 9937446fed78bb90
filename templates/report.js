/* trnready report: ticks and notes (localStorage, export/import), progress, filters kept in the URL,
   grouping by phase / file / category, source links and suppression comments. Reads everything from the DOM. */
(function () {
  "use strict";
  var root = document.documentElement;
  root.className = root.className.replace(/\bno-js\b/, "js");
  var body = document.body;
  // One entry per scanned root; inside, the fingerprints of the occurrences ticked off. Fingerprints
  // do not depend on line numbers, so ticks survive a re-scan after unrelated edits.
  var KEY = "trnready:v1:" + (body.getAttribute("data-root") || "");
  var NOTES_KEY = "trnready:v1:notes:" + (body.getAttribute("data-root") || "");
  var done = load(KEY);
  var notes = load(NOTES_KEY);

  function load(key) {
    try {
      var v = JSON.parse(window.localStorage.getItem(key) || "{}");
      return v && typeof v === "object" && !Array.isArray(v) ? v : {};
    } catch (e) {
      return {};
    }
  }
  function save() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(done));
      window.localStorage.setItem(NOTES_KEY, JSON.stringify(notes));
    } catch (e) { /* private mode or quota: ticks last for this page only */ }
  }

  var srcUrl = body.getAttribute("data-src-url") || "";
  if (!/^https?:\/\//i.test(srcUrl)) srcUrl = "";
  function encodePath(p) { return p.split("/").map(encodeURIComponent).join("/"); }
  // The suppression comment in the commenting style of the file's kind.
  function suppression(path, rule) {
    var text = "trnready: ignore[" + rule + "] <reason>";
    return /\.(cu|cuh|cpp|cc|cxx|c|h|hpp|hh)$/i.test(path) ? "// " + text : "# " + text;
  }

  var items = [];
  var occsAll = [];
  var byFp = Object.create(null);
  var articles = document.querySelectorAll("article.item");
  for (var i = 0; i < articles.length; i++) {
    var el = articles[i];
    var item = {
      el: el, cb: el.querySelector("input.icb"), details: el.querySelector("details.occs"),
      ol: el.querySelector("ol.olist"), note: el.querySelector("textarea.note"),
      rule: el.getAttribute("data-rule"), title: el.querySelector(".ititle").textContent,
      sev: el.getAttribute("data-sev"), cat: el.getAttribute("data-cat"), phase: el.getAttribute("data-phase"),
      effort: el.getAttribute("data-effort") || "", home: el.parentNode, occs: []
    };
    item.text = (item.rule + " " + item.title).toLowerCase();
    if (item.note) item.note.value = typeof notes[item.rule] === "string" ? notes[item.rule] : "";
    var lis = el.querySelectorAll("li.occ");
    for (var j = 0; j < lis.length; j++) {
      var li = lis[j];
      var cb = li.querySelector("input.ocb");
      var loc = li.querySelector(".loc").textContent;
      var colon = loc.lastIndexOf(":");
      // "path:line" is the location text itself; notebooks and odd names carry data-p / data-l.
      var occ = {
        li: li, cb: cb, fp: cb.value, item: item,
        path: li.hasAttribute("data-p") ? li.getAttribute("data-p") : loc.slice(0, colon),
        line: li.hasAttribute("data-p") ? li.getAttribute("data-l") || "" : loc.slice(colon + 1),
        effort: li.getAttribute("data-e") || item.effort, conf: li.getAttribute("data-c") || "high",
        fixable: li.getAttribute("data-fx") === "1", scope: li.getAttribute("data-s") || ""
      };
      occ.lpath = loc.toLowerCase();
      cb.checked = done[occ.fp] === 1;
      addActions(occ);
      item.occs.push(occ);
      occsAll.push(occ);
      (byFp[occ.fp] = byFp[occ.fp] || []).push(occ);
    }
    item.el.__trn = item;
    items.push(item);
  }

  // Per occurrence: a link to the line on the hosting service (when the scan root is a known checkout
  // or --source-url was given) and a button that copies the suppression comment for that line.
  function addActions(occ) {
    var span = document.createElement("span");
    span.className = "oacts";
    if (srcUrl) {
      var a = document.createElement("a");
      a.className = "srcl";
      a.href = srcUrl.replace("{path}", encodePath(occ.path)).replace("{line}", occ.line)
        .replace("{commit}", "");
      a.rel = "noopener noreferrer";
      a.target = "_blank";
      a.textContent = "source";
      a.title = "Open " + occ.path + " at line " + occ.line + " on the hosting service";
      span.appendChild(a);
    }
    var b = document.createElement("button");
    b.type = "button";
    b.className = "supp";
    b.textContent = "copy ignore";
    b.setAttribute("data-text", suppression(occ.path, occ.item.rule));
    b.title = "Copy " + b.getAttribute("data-text");
    span.appendChild(b);
    occ.li.querySelector(".oloc").insertAdjacentElement("afterend", span);
  }

  var copied = document.getElementById("copied");
  function copyText(text) {
    function fallback() {
      var ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.className = "offscreen";
      body.appendChild(ta);
      ta.select();
      try { document.execCommand("copy"); } catch (e) { /* the status line still shows the text */ }
      body.removeChild(ta);
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).catch(fallback);
    } else {
      fallback();
    }
    if (copied) copied.textContent = "Copied: " + text;
  }
  document.addEventListener("click", function (ev) {
    var t = ev.target;
    if (!(t instanceof Element)) return;
    if (t.classList.contains("supp")) copyText(t.getAttribute("data-text"));
    else if (t.hasAttribute("data-copy-from")) {
      var src = document.getElementById(t.getAttribute("data-copy-from"));
      if (src) copyText(src.textContent);
    }
  });

  var total = occsAll.length;
  items.forEach(refreshItem);

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
  function refreshAll() {
    items.forEach(function (it) {
      it.occs.forEach(function (o) { o.cb.checked = done[o.fp] === 1; });
      if (it.note) it.note.value = typeof notes[it.rule] === "string" ? notes[it.rule] : "";
      refreshItem(it);
    });
    refreshProgress();
    applyFilters();
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
    list.addEventListener("input", function (ev) {
      var t = ev.target;
      if (!t.classList || !t.classList.contains("note")) return;
      var v = t.value.slice(0, 2000);
      if (v.trim()) notes[t.getAttribute("data-rule")] = v; else delete notes[t.getAttribute("data-rule")];
      save();
    });
  }
  window.addEventListener("storage", function (ev) {
    if (ev.key !== KEY && ev.key !== NOTES_KEY) return;
    done = load(KEY);
    notes = load(NOTES_KEY);
    refreshAll();
  });

  // --- export / import of a review (ticks by fingerprint, notes by rule) ---------------------------
  var exportBtn = document.getElementById("export");
  var importInput = document.getElementById("import");
  if (exportBtn) {
    exportBtn.addEventListener("click", function () {
      var data = { format: "trnready-review", version: 1, root: body.getAttribute("data-root") || "",
                   exported_at: new Date().toISOString(), ticks: Object.keys(done).sort(), notes: notes };
      var blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
      var a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      var name = (body.getAttribute("data-root") || "report").split(/[\\/]/).filter(Boolean).pop() || "report";
      a.download = "trnready-review-" + name.replace(/[^\w.-]+/g, "_") + ".json";
      body.appendChild(a);
      a.click();
      body.removeChild(a);
      setTimeout(function () { URL.revokeObjectURL(a.href); }, 1000);
    });
  }
  if (importInput) {
    importInput.addEventListener("change", function () {
      var f = importInput.files && importInput.files[0];
      if (!f) return;
      var reader = new FileReader();
      reader.onload = function () {
        var data, msg;
        try { data = JSON.parse(String(reader.result)); } catch (e) { data = null; }
        if (!data || data.format !== "trnready-review" || !Array.isArray(data.ticks)) {
          msg = "Not a trnready review file: nothing imported.";
        } else {
          var ticked = 0, unknown = 0, noted = 0;
          data.ticks.forEach(function (fp) {
            if (typeof fp !== "string") return;
            if (byFp[fp]) { if (done[fp] !== 1) ticked++; setOcc(fp, true); } else unknown++;
          });
          var inNotes = data.notes && typeof data.notes === "object" ? data.notes : {};
          Object.keys(inNotes).forEach(function (rule) {
            var v = inNotes[rule];
            if (typeof v !== "string" || !v.trim()) return;
            var mine = notes[rule];
            if (!mine) notes[rule] = v.slice(0, 2000);
            else if (mine.indexOf(v) === -1) notes[rule] = (mine + "\n" + v).slice(0, 2000);
            else return;
            noted++;
          });
          save();
          refreshAll();
          msg = "Imported " + ticked + " tick" + (ticked === 1 ? "" : "s") + " and " + noted + " note" +
            (noted === 1 ? "" : "s") + (unknown ? " (" + unknown + " ticked findings are not in this report)" : "") + ".";
        }
        if (copied) copied.textContent = msg;
        importInput.value = "";
      };
      reader.readAsText(f);
    });
  }

  // --- grouping: phase (as rendered), category, or file -------------------------------------------
  var groups = document.getElementById("groups");
  var alt = document.getElementById("groups-alt");
  var toolbar = document.querySelector(".toolbar");
  var catOrder = toolbar ? (toolbar.getAttribute("data-cat-order") || "").split(" ").filter(Boolean) : [];
  var groupBoxes = document.querySelectorAll('input[name="group"]');
  var mode = "phase";
  var sections = [];  // [{el, count, occs: [occ]}] of the current view

  function makeSection(id, title, cls) {
    var sec = document.createElement("section");
    sec.className = "grp " + cls;
    sec.id = id;
    var h = document.createElement("h3");
    h.appendChild(document.createTextNode(title + " "));
    var c = document.createElement("span");
    c.className = "muted gcount";
    h.appendChild(c);
    sec.appendChild(h);
    return { el: sec, count: c, occs: [] };
  }
  function restoreHome() {
    items.forEach(function (it) {
      it.occs.forEach(function (o) {
        var tag = o.li.querySelector(".orule");
        if (tag) tag.hidden = true;
        it.ol.appendChild(o.li);
      });
      it.home.appendChild(it.el);
    });
  }
  function setMode(m) {
    if (!groups) return;
    if (m !== "file" && m !== "category") m = "phase";
    restoreHome();
    alt.textContent = "";
    sections = [];
    if (m === "phase") {
      var secs = groups.querySelectorAll("section.grp");
      for (var s = 0; s < secs.length; s++) {
        var rec = { el: secs[s], count: secs[s].querySelector(".gcount"), occs: [] };
        items.forEach(function (it) { if (it.home === secs[s]) rec.occs = rec.occs.concat(it.occs); });
        sections.push(rec);
      }
      groups.hidden = false;
      alt.hidden = true;
    } else if (m === "category") {
      var byCat = {};
      catOrder.forEach(function (c) {
        byCat[c] = makeSection("cat-" + c, c, "cat");
        sections.push(byCat[c]);
        alt.appendChild(byCat[c].el);
      });
      var rank = { blocker: 3, change: 2, advisory: 1 };
      items.slice().sort(function (a, b) {
        return (rank[b.sev] - rank[a.sev]) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
      }).forEach(function (it) {
        var rec = byCat[it.cat];
        if (!rec) { rec = byCat[it.cat] = makeSection("cat-" + it.cat, it.cat, "cat"); sections.push(rec); alt.appendChild(rec.el); }
        rec.el.appendChild(it.el);
        rec.occs = rec.occs.concat(it.occs);
      });
      groups.hidden = true;
      alt.hidden = false;
    } else {
      var byFile = {}, order = [];
      occsAll.forEach(function (o) {
        var rec = byFile[o.path];
        if (!rec) {
          rec = byFile[o.path] = makeSection("file-" + order.length, o.path, "file");
          rec.ol = document.createElement("ol");
          rec.ol.className = "olist";
          rec.el.appendChild(rec.ol);
          order.push(o.path);
        }
        var tag = o.li.querySelector(".orule");
        if (!tag) {
          tag = document.createElement("a");
          tag.className = "orule";
          tag.href = "#" + o.item.rule;
          tag.textContent = o.item.rule + " · " + o.item.title;
          o.li.insertBefore(tag, o.li.firstChild);
        }
        tag.hidden = false;
        rec.occs.push(o);
      });
      order.sort().forEach(function (p) {
        var rec = byFile[p];
        rec.occs.sort(function (a, b) { return (+a.line) - (+b.line); });
        rec.occs.forEach(function (o) { rec.ol.appendChild(o.li); });
        sections.push(rec);
        alt.appendChild(rec.el);
      });
      groups.hidden = true;
      alt.hidden = false;
    }
    mode = m;
    for (var g = 0; g < groupBoxes.length; g++) groupBoxes[g].checked = groupBoxes[g].value === m;
    body.setAttribute("data-group", m);
  }

  // --- filters: severity, category, effort, confidence, scope, fixable, text, hide done -------------
  var sevBoxes = document.querySelectorAll('input[name="sev"]');
  var catSel = document.getElementById("f-cat");
  var effortSel = document.getElementById("f-effort");
  var confSel = document.getElementById("f-conf");
  var scopeSel = document.getElementById("f-scope");
  var fixableBox = document.getElementById("f-fixable");
  var textBox = document.getElementById("f-text");
  var hideDone = document.getElementById("f-hide-done");
  var status = document.getElementById("f-status");
  var empty = document.getElementById("f-empty");
  var openedByFilter = [];

  function state() {
    var sevs = [];
    for (var s = 0; s < sevBoxes.length; s++) if (sevBoxes[s].checked) sevs.push(sevBoxes[s].value);
    return {
      group: mode, sev: sevs, cat: catSel ? catSel.value : "", effort: effortSel ? effortSel.value : "",
      conf: confSel ? confSel.value : "", scope: scopeSel ? scopeSel.value : "",
      fixable: !!(fixableBox && fixableBox.checked), q: textBox ? textBox.value.trim() : "",
      hide: !!(hideDone && hideDone.checked)
    };
  }

  function applyFilters() {
    if (!catSel) return;
    var st = state();
    var sevs = {};
    st.sev.forEach(function (s) { sevs[s] = true; });
    var q = st.q.toLowerCase();
    var shownItems = 0, shownOccs = 0;
    var filtering = !!(q || st.cat || st.effort || st.conf || st.scope || st.fixable || st.hide ||
                       st.sev.length < sevBoxes.length);
    openedByFilter.forEach(function (d) { d.open = false; });
    openedByFilter = [];
    items.forEach(function (it) {
      var base = sevs[it.sev] === true && (!st.cat || it.cat === st.cat);
      var ruleHit = !q || it.text.indexOf(q) !== -1;
      var visible = 0;
      for (var k = 0; k < it.occs.length; k++) {
        var o = it.occs[k];
        var show = base && (ruleHit || o.lpath.indexOf(q) !== -1) && !(st.hide && o.cb.checked) &&
          (!st.effort || o.effort === st.effort) && (!st.conf || o.conf === st.conf) &&
          (!st.scope || o.scope === st.scope) && (!st.fixable || o.fixable);
        o.shown = show;
        if (o.li.hidden === show) o.li.hidden = !show;
        if (show) visible++;
      }
      var showItem = visible > 0;
      if (it.el.hidden === showItem) it.el.hidden = !showItem;
      if (showItem) { shownItems++; shownOccs += visible; }
      // A path match inside a collapsed list would be invisible: open it while the filter holds.
      if (showItem && mode !== "file" && (q && !ruleHit || st.effort || st.conf || st.scope || st.fixable) &&
          it.details && !it.details.open) {
        it.details.open = true;
        openedByFilter.push(it.details);
      }
    });
    // Group headers count what the filters leave.
    sections.forEach(function (rec) {
      var n = 0;
      rec.occs.forEach(function (o) { if (o.shown) n++; });
      rec.count.textContent = String(n);
      if (rec.el.hidden === (n > 0)) rec.el.hidden = n === 0;
    });
    if (empty) empty.hidden = shownItems !== 0;
    status.textContent = filtering ? "Showing " + shownItems + " of " + items.length + " rules, " + shownOccs + " of " + total + " occurrences." : "";
    writeHash(st);
  }

  // Filters and grouping live in the URL fragment (#group=file&sev=blocker), so a link opens the same view.
  var writing = false;
  function writeHash(st) {
    var parts = [];
    if (st.group !== "phase") parts.push("group=" + st.group);
    if (st.sev.length < sevBoxes.length) parts.push("sev=" + st.sev.join(","));
    ["cat", "effort", "conf", "scope", "q"].forEach(function (k) {
      if (st[k]) parts.push(k + "=" + encodeURIComponent(st[k]));
    });
    if (st.fixable) parts.push("fixable=1");
    if (st.hide) parts.push("hide=1");
    var want = parts.join("&");
    var have = location.hash.replace(/^#/, "");
    if (want === have || (!want && have.indexOf("=") === -1)) return;
    writing = true;
    try { history.replaceState(null, "", want ? "#" + want : location.pathname + location.search); }
    catch (e) { location.replace("#" + want); }
    writing = false;
  }
  function readHash() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("=") === -1) return false;
    var p = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* bad escape: ignore */ }
      }
    });
    var sevs = p.sev !== undefined ? p.sev.split(",") : null;
    for (var s = 0; s < sevBoxes.length; s++) sevBoxes[s].checked = !sevs || sevs.indexOf(sevBoxes[s].value) !== -1;
    function pick(sel, v) {
      if (!sel) return;
      sel.value = v || "";
      if (sel.value !== (v || "")) sel.value = "";
    }
    pick(catSel, p.cat); pick(effortSel, p.effort); pick(confSel, p.conf); pick(scopeSel, p.scope);
    if (fixableBox) fixableBox.checked = p.fixable === "1";
    if (hideDone) hideDone.checked = p.hide === "1";
    if (textBox) textBox.value = p.q || "";
    setMode(p.group || "phase");
    return true;
  }

  var timer = 0;
  if (catSel) {
    for (var s = 0; s < sevBoxes.length; s++) sevBoxes[s].addEventListener("change", applyFilters);
    [catSel, effortSel, confSel, scopeSel, fixableBox, hideDone].forEach(function (el) {
      if (el) el.addEventListener("change", applyFilters);
    });
    textBox.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(applyFilters, items.length > 200 ? 150 : 40);
    });
    for (var g = 0; g < groupBoxes.length; g++) {
      groupBoxes[g].addEventListener("change", function (ev) { setMode(ev.target.value); applyFilters(); });
    }
  }
  window.addEventListener("hashchange", function () {
    if (writing) return;
    var h = location.hash.replace(/^#/, "");
    if (readHash()) { applyFilters(); return; }
    // A chart link (#cat-NAME) opens the category view at that category.
    if (/^cat-/.test(h) && mode !== "category") {
      setMode("category");
      applyFilters();
      var target = document.getElementById(h);
      if (target) target.scrollIntoView();
    }
  });

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

  if (!readHash()) {
    setMode("phase");
    var h0 = location.hash.replace(/^#/, "");
    if (/^cat-/.test(h0)) { setMode("category"); }
  }
  applyFilters();
  if (/^#cat-/.test(location.hash)) {
    var t0 = document.getElementById(location.hash.slice(1));
    if (t0) t0.scrollIntoView();
  }
  refreshProgress();
  root.setAttribute("data-ready", "1");
  window.trnreadyReady = window.performance ? performance.now() : 0;
})();
