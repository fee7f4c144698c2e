/* posting: the officer's map. Draws and explains the tables that posting.maps embeds.
 *
 * Every text that comes from input files (ids, owners, sign attributes, file names) is set
 * with textContent, never parsed as HTML, so a name such as "<script>" shows as those
 * characters and runs nothing. The words shown for statuses, rules and verdicts come with the
 * data (ctx.vocab): none is defined here. Nothing here measures what the report measured;
 * "you are here" measures from the device's own position, in the browser, and sends nothing.
 */
var posting = (function () {
  "use strict";

  var ctx = null;
  var map = null;
  var T = {}; // shared tables: T.parcels.col(i), T.findings
  var renderer = null;
  var groups = []; // every layer made by layer()
  var shapes = []; // parcel row -> {f: feature geometry, g: its layer, path}
  var byId = new Map(); // parcel id -> [row, ...]
  var partOf = new Map(); // id of a parcel merged into a property -> [the property's row, ...]
  var findingsOf = null; // parcel row -> [finding index, ...], made on first use
  var touch = false;

  // -- small helpers ------------------------------------------------------------------------
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  var formats = {};
  function num(x, digits) {
    var d = digits === undefined ? 1 : digits;
    var f = formats[d] || (formats[d] = new Intl.NumberFormat("en-US", { maximumFractionDigits: d }));
    return f.format(Number(x));
  }

  // feet to a tenth; a figure under a twentieth of a foot to a hundredth, not as nought (the
  // 0.01 ft within which a sign on a shared line is in doubt read "limit 0 ft")
  function ft(x) {
    if (x === undefined || x === null) return null;
    var s = num(x);
    return (Number(x) !== 0 && /^-?0$/.test(s) ? num(x, 2) : s) + " ft";
  }

  // a figure beside its limit: to a tenth, or to a hundredth where a tenth would show a figure
  // over or under its limit as the limit itself (a gap of 500.04 ft is not "500 ft")
  function ftVs(x, limit) {
    if (x === undefined || x === null) return null;
    if (limit === undefined || limit === null || x === limit || num(x) !== num(limit)) return ft(x);
    return num(x, 2) + " ft";
  }

  function qty(x, unit, limit) {
    if (x === undefined || x === null) return null;
    if (unit === "ft") return ftVs(x, limit);
    var d = limit !== undefined && limit !== null && x !== limit && num(x, 2) === num(limit, 2) ? 4 : 2;
    return num(x, d) + (unit ? " " + unit : "");
  }

  function fact(table, label, value) {
    if (value === undefined || value === null || value === "") return;
    var tr = el("tr");
    tr.appendChild(el("th", null, label));
    tr.appendChild(el("td", null, value));
    table.appendChild(tr);
  }

  function source(file, row) {
    // "data/signs.csv", 12 -> "signs.csv row 12"
    return String(file).split(/[\\/]/).pop() + " row " + row;
  }

  function clause(k) {
    return k === undefined || k === null || k < 0 ? null : ctx.clauses[k];
  }

  function ruleWord(rule) {
    return ctx.vocab.rules[rule] || String(rule).replace(/_/g, " ");
  }

  // -- the tables ---------------------------------------------------------------------------
  // A column is a list, or {k: texts, c: codes} (each text once), {d: differences} (integers),
  // {s: rows, v: values} (only some rows have one) or {t: rows} (true on those rows).
  function cumsum(d) {
    var out = new Float64Array(d.length);
    var s = 0;
    for (var i = 0; i < d.length; i++) out[i] = s += d[i];
    return out;
  }

  function column(spec) {
    if (spec === undefined || spec === null) return function () {};
    if (Array.isArray(spec)) {
      return function (i) {
        var v = spec[i];
        return v === null ? undefined : v;
      };
    }
    if (spec.k) {
      return function (i) {
        var c = spec.c[i];
        return c < 0 || c === undefined ? undefined : spec.k[c];
      };
    }
    if (spec.d) {
      var a = cumsum(spec.d);
      return function (i) {
        return a[i];
      };
    }
    if (spec.s) {
      var m = new Map();
      spec.s.forEach(function (r, j) {
        m.set(r, spec.v[j]);
      });
      return function (i) {
        return m.get(i);
      };
    }
    if (spec.t) {
      var set = new Set(spec.t);
      return function (i) {
        return set.has(i) || undefined;
      };
    }
    return function () {};
  }

  function table(data, skip) {
    var t = {};
    Object.keys(data).forEach(function (k) {
      if (!skip || skip.indexOf(k) < 0) t[k] = column(data[k]);
    });
    return t;
  }

  function col(t, name) {
    return t[name] || function () {};
  }

  // Coordinates: integers in millionths of a degree, each the difference from the one before.
  function coords(xy) {
    var n = xy.length >> 1;
    var lon = new Float64Array(n);
    var lat = new Float64Array(n);
    var x = 0;
    var y = 0;
    for (var i = 0; i < n; i++) {
      x += xy[2 * i];
      y += xy[2 * i + 1];
      lon[i] = x / 1e6;
      lat[i] = y / 1e6;
    }
    return { lon: lon, lat: lat, n: n };
  }

  // Lines or polygons: per feature, its rings (or lines) as [start, end) into the coordinates,
  // and per polygon the number of its rings.
  function features(data, polygons) {
    var c = coords(data.xy);
    var n = data.n || [];
    var perRing = n[0] || [];
    var out = [];
    var at = 0;
    var ring = 0;
    var poly = 0;
    var perFeature = polygons ? n[2] || [] : n[1] || [];
    for (var f = 0; f < perFeature.length; f++) {
      var feat = { rings: [], polys: [] };
      var parts = perFeature[f];
      for (var p = 0; p < parts; p++) {
        var rings = polygons ? n[1][poly++] : 1;
        feat.polys.push(rings);
        for (var r = 0; r < rings; r++) {
          feat.rings.push([at, at + perRing[ring]]);
          at += perRing[ring++];
        }
      }
      out.push(feat);
    }
    return { c: c, f: out };
  }

  function latlngs(c, feat, polygons) {
    var out = [];
    var k = 0;
    feat.polys.forEach(function (nr) {
      var part = [];
      for (var r = 0; r < nr; r++) {
        var se = feat.rings[k++];
        var ring = [];
        for (var i = se[0]; i < se[1]; i++) ring.push(L.latLng(c.lat[i], c.lon[i]));
        part.push(ring);
      }
      out.push(polygons ? part : part[0]);
    });
    return out;
  }

  function bbox(c, feat) {
    var b = [Infinity, Infinity, -Infinity, -Infinity];
    feat.rings.forEach(function (se) {
      for (var i = se[0]; i < se[1]; i++) {
        if (c.lon[i] < b[0]) b[0] = c.lon[i];
        if (c.lat[i] < b[1]) b[1] = c.lat[i];
        if (c.lon[i] > b[2]) b[2] = c.lon[i];
        if (c.lat[i] > b[3]) b[3] = c.lat[i];
      }
    });
    return b;
  }

  // -- popups -----------------------------------------------------------------------------
  function statusBadge(status) {
    var words = ctx.vocab.status[status];
    var b = el("div", "posting-status posting-status-" + (words ? status : "other"), words ? words[1] : status);
    var color = ctx.colors.status[status];
    if (color) b.style.setProperty("--c", color);
    return b;
  }

  // a status in one word (its short name), or as given where the vocabulary has none
  function statusWord(status) {
    return (ctx.vocab.status[status] || [status])[0];
  }

  // a parcel's id as a link that opens its popup
  function parcelLink(row) {
    var link = el("a", "posting-id", T.parcels.id(row));
    link.href = "#";
    link.addEventListener("click", function (e) {
      e.preventDefault();
      openParcel(row);
    });
    return link;
  }

  function parcelFindings(row) {
    if (!findingsOf) {
      findingsOf = new Map();
      var p = T.findings.parcel;
      var n = ctx.findings_n;
      for (var i = 0; i < n; i++) {
        var r = p(i);
        if (!findingsOf.has(r)) findingsOf.set(r, []);
        findingsOf.get(r).push(i);
      }
    }
    return findingsOf.get(row) || [];
  }

  // the statuses of a parcel that fails the law: under any other (uncertain, exempt...) its
  // violation-level findings are not headed "Violations"
  var FAILED = { noncompliant: true, unposted: true };

  function findings(box, row) {
    var F = T.findings;
    var idx = parcelFindings(row);
    var words = FAILED[T.parcels.status(row)] ? {} : ctx.vocab.levels_not_failed;
    Object.keys(ctx.vocab.levels).forEach(function (level) {
      var items = idx.filter(function (i) {
        return F.level(i) === level;
      });
      if (!items.length) return;
      var cls = level.replace(/_/g, "-");
      box.appendChild(el("h4", "posting-h-" + cls, words[level] || ctx.vocab.levels[level]));
      var ul = el("ul", "posting-findings posting-" + cls);
      items.forEach(function (i) {
        var li = el("li");
        li.appendChild(el("b", null, ruleWord(F.rule(i))));
        li.appendChild(document.createTextNode(": " + F.message(i)));
        var figures = [];
        var measured = qty(F.measured(i), F.unit(i), F.limit(i));
        var limit = qty(F.limit(i), F.unit(i));
        if (measured) figures.push("measured " + measured);
        if (limit) figures.push("limit " + limit);
        if (figures.length) li.appendChild(el("div", "posting-figures", figures.join(" · ")));
        var c = clause(ctx.finding_clauses[i]);
        if (c) li.appendChild(el("div", "posting-clause", c));
        ul.appendChild(li);
      });
      box.appendChild(ul);
    });
  }

  function parcelId(row) {
    return row === undefined || row < 0 ? undefined : T.parcels.id(row);
  }

  function parcelPopup(row) {
    var P = T.parcels;
    var box = el("div", "posting-popup posting-popup-parcel");
    var h = el("h3", null, "Parcel ");
    h.appendChild(el("span", "posting-id", P.id(row)));
    box.appendChild(h);
    var status = P.status(row);
    box.appendChild(statusBadge(status));
    var t = el("table", "posting-facts");
    fact(t, "Owner", P.owner(row));
    fact(t, "Judged by", P.rules(row));
    fact(t, "Exemption", P.exemption(row));
    fact(t, "Posted by", P.posted_by(row));
    fact(t, "Area", P.area_acres(row) === undefined ? null : num(P.area_acres(row), 2) + " acres");
    fact(t, "Recorded area", P.recorded_acres(row) === undefined ? null : num(P.recorded_acres(row), 2) + " acres");
    fact(t, "Boundary", ft(P.perimeter_ft(row)));
    fact(t, "Markers", P.signs(row));
    fact(t, "Longest gap", ft(P.max_gap_ft(row)));
    var corners = P.corners(row);
    if (corners !== undefined) {
      var missing = P.missing_corners(row);
      fact(t, "Corners", corners + (missing ? " (" + missing + " without a marker)" : ""));
    }
    fact(t, "Access points without a marker", P.missing_access(row) || null);
    fact(t, "Water frontage", ft(P.water_frontage_ft(row)));
    fact(t, "In easements", ft(P.easement_ft(row)));
    fact(t, "Not fenced", ft(P.unfenced_ft(row)));
    fact(t, "Merged from parcels", P.source_ids(row));
    box.appendChild(t);
    findings(box, row);
    if (P.repaired(row)) box.appendChild(el("p", "posting-note", "Geometry " + P.repaired(row)));
    if (P.duplicate_id(row)) {
      box.appendChild(el("p", "posting-note", "Another parcel has the same id; each is checked on its own."));
    }
    return box;
  }

  function heading(text, row) {
    var h = el("h3", null, text);
    var id = parcelId(row);
    if (id !== undefined) h.appendChild(el("span", "posting-id", id));
    return h;
  }

  // a gap over the limit or a corner without a marker of a parcel that is uncertain (its
  // markers on a line shared with a neighbour, a guidance layout...): not a violation
  function uncertainParcel(box, row, status) {
    if (row === undefined || row < 0 || status === "uncertain" || T.parcels.status(row) !== "uncertain") return;
    var p = el("p", "posting-note posting-uncertain-parcel", "The verdict on parcel ");
    p.appendChild(parcelLink(row));
    p.appendChild(document.createTextNode(" is uncertain, not noncompliant: its popup says why."));
    box.appendChild(p);
  }

  // a gap's figure that its rule judged (along the boundary, in a straight line, or along it
  // less water), to be written on it: with its kind where that is not the length along it
  function gapFigure(d, i) {
    var x = d.measured_ft(i) === undefined ? d.length_ft(i) : d.measured_ft(i);
    var kind = ctx.vocab.gap_figure[d.figure(i)];
    var text = ftVs(x, d.limit_ft(i));
    return text && kind ? text + " " + kind[0] : text;
  }

  function gapPopup(g, i) {
    var d = g.cols;
    var status = d.status(i);
    var box = el("div", "posting-popup posting-popup-gap");
    box.appendChild(heading(status === "unmarked" ? "Unmarked boundary of parcel " : "Gap on parcel ", d.parcel(i)));
    var t = el("table", "posting-facts");
    var kind = d.figure(i);
    var judged = " (the figure the rule judges)";
    var along = ftVs(d.length_ft(i), d.limit_ft(i));
    var straight = ftVs(d.straight_ft(i), d.limit_ft(i));
    // both figures shown, and not the same: the one the rule judged says so
    var two = along && straight && along !== straight;
    fact(t, "Along the boundary", along && two && !kind ? along + judged : along);
    fact(t, "Straight line", straight && two && kind === "straight" ? straight + judged : straight);
    if (kind === "water") fact(t, "Along the boundary, less water", ftVs(d.measured_ft(i), d.limit_ft(i)) + judged);
    fact(t, "Limit", d.limit_words(i) || (d.limit_ft(i) === undefined ? null : "not more than " + ft(d.limit_ft(i))));
    if (d.from_source(i) !== undefined) fact(t, "From marker", source(d.from_source(i), d.from_row(i)));
    if (d.to_source(i) !== undefined) fact(t, "To marker", source(d.to_source(i), d.to_row(i)));
    if (status === "unmarked") {
      var part = d.part(i);
      var ring = d.hole(i) ? "hole " + d.hole(i) : "outer boundary";
      fact(t, "Ring", (part ? "part " + (part + 1) + ", " : "") + ring + ": no marker on it");
    }
    fact(t, "Verdict", ctx.vocab.gap[status] || status);
    box.appendChild(t);
    if (status === "uncertain") {
      // why: the survey's accuracy, the land's elevation or cover, a marker by a corner...
      // as the parcel's own spacing finding says (the gaps are the spacing rule's)
      var F = T.findings;
      parcelFindings(d.parcel(i)).forEach(function (k) {
        if (F.level(k) === "uncertain" && F.rule(k) === "spacing") box.appendChild(el("p", "posting-why", F.message(k)));
      });
    }
    uncertainParcel(box, d.parcel(i), status);
    var c = clause(g.data.clause && g.data.clause[i]);
    if (c) box.appendChild(el("div", "posting-clause", c));
    return box;
  }

  function pointPopup(g, i, words, limit) {
    var d = g.cols;
    var status = d.status(i);
    var box = el("div", "posting-popup posting-popup-" + g.postingKind);
    box.appendChild(heading((words[status] || status) + ", parcel ", d.parcel(i)));
    var t = el("table", "posting-facts");
    fact(t, "Type", d.type(i));
    fact(t, "Limit", limit ? "a marker within " + ft(limit) : null);
    fact(t, "Nearest marker of the parcel", d.nearest_ft(i) === undefined ? "none within the limit" : ftVs(d.nearest_ft(i), limit));
    fact(t, "Its own marker", d.shared(i) ? "none: the markers near it serve other corners (one marker serves one corner)" : null);
    fact(t, "Nearest marker along this boundary", ftVs(d.neighbour_ft(i), limit));
    fact(t, "Stated survey accuracy", ctx.accuracy_ft ? "± " + ft(ctx.accuracy_ft) : null);
    fact(t, "Turn of the boundary", d.turn_deg(i) === undefined ? null : num(d.turn_deg(i), 0) + "°");
    box.appendChild(t);
    uncertainParcel(box, d.parcel(i), status);
    var c = clause(g.data.clause && g.data.clause[i]);
    if (c) box.appendChild(el("div", "posting-clause", c));
    return box;
  }

  function markerWhy(d, i) {
    var how = d.how(i);
    if (how && ctx.vocab.how[how]) return ctx.vocab.how[how] + " (" + num(d.distance_ft(i), 1) + " ft from it)";
    return d.reason(i);
  }

  function attrFacts(t, g, i) {
    Object.keys(g.attrs).forEach(function (k) {
      fact(t, k, g.attrs[k](i));
    });
  }

  function markerPopup(g, i) {
    var d = g.cols;
    var box = el("div", "posting-popup posting-popup-marker");
    box.appendChild(el("h3", null, "Marker: " + source(d.source(i), d.row(i))));
    var t = el("table", "posting-facts");
    var row = d.parcel(i);
    var why = markerWhy(d, i);
    fact(t, "Parcel", row >= 0 ? parcelId(row) : "none: " + (why || "not near any boundary"));
    if (row >= 0) fact(t, "Why this parcel", why);
    if (d.uncounted(i)) fact(t, "Counts for", "no rule: its kind is not a sign, paint mark or post");
    attrFacts(t, g, i);
    box.appendChild(t);
    return box;
  }

  function plannedPopup(g, i) {
    var box = el("div", "posting-popup posting-popup-planned");
    box.appendChild(el("h3", null, "Marker to add"));
    var t = el("table", "posting-facts");
    attrFacts(t, g, i);
    box.appendChild(t);
    return box;
  }

  function stretchPopup(g, i) {
    var d = g.cols;
    var words = { water: "Boundary formed by water, parcel ", easements: "Boundary inside an easement, parcel ", fences: "Boundary not fenced, parcel " };
    var box = el("div", "posting-popup posting-popup-" + g.postingKind);
    box.appendChild(heading(words[g.postingKind], d.parcel(i)));
    var t = el("table", "posting-facts");
    fact(t, "Length", ft(d.length_ft(i)));
    fact(t, "Holder", d.holder(i));
    box.appendChild(t);
    return box;
  }

  function popupContent(g, i) {
    switch (g.postingKind) {
      case "parcels":
      case "merged":
        return parcelPopup(g.rows(i));
      case "gaps":
        return gapPopup(g, i);
      case "corners":
        return pointPopup(g, i, ctx.vocab.corner, ctx.corner_tolerance_ft);
      case "access":
        return pointPopup(g, i, ctx.vocab.access, ctx.access_tolerance_ft);
      case "markers":
        return markerPopup(g, i);
      case "planned":
        return plannedPopup(g, i);
      default:
        return stretchPopup(g, i);
    }
  }

  function tipText(g, i) {
    var d = g.cols;
    switch (g.postingKind) {
      case "parcels":
      case "merged":
        return T.parcels.id(g.rows(i));
      case "gaps":
      case "water":
      case "easements":
      case "fences":
        return g.postingKind === "gaps" ? gapFigure(d, i) : ft(d.length_ft(i));
      case "corners":
        return "corner of " + parcelId(d.parcel(i));
      case "access":
        return "access point of " + parcelId(d.parcel(i));
      case "markers":
        return source(d.source(i), d.row(i));
      case "planned":
        return g.attrs.name ? g.attrs.name(i) : "marker to add";
    }
    return null;
  }

  // Popups open below the controls at the top and above those at the bottom, as wide as the
  // screen allows, and scroll when they are taller than the room left.
  function popupOptions(latlng) {
    var size = map.getSize();
    var box = map.getContainer().getBoundingClientRect();
    var side = 8;
    var maxW = Math.max(160, Math.min(400, size.x - 2 * side - 46));
    var w = maxW + 46;
    var x = map.latLngToContainerPoint(latlng).x;
    var left = Math.max(side, Math.min(x - w / 2, size.x - side - w));
    var top = side;
    var bottom = side;
    document.querySelectorAll(".leaflet-control-container .leaflet-control").forEach(function (c) {
      var r = c.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(c).visibility === "hidden") return;
      if (r.right - box.left < left - side || r.left - box.left > left + w + side) return;
      if (c.closest(".leaflet-top")) top = Math.max(top, r.bottom - box.top + side);
      else bottom = Math.max(bottom, box.bottom - r.top + side);
    });
    return {
      maxWidth: maxW,
      minWidth: Math.min(240, maxW),
      maxHeight: Math.max(100, size.y - top - bottom - 48),
      autoPanPaddingTopLeft: [side, top],
      autoPanPaddingBottomRight: [side, bottom],
      className: "posting-popup-wrap",
    };
  }

  function openPopup(g, i, latlng) {
    var content = popupContent(g, i);
    var popup = L.popup(popupOptions(latlng)).setLatLng(latlng).setContent(content);
    popup.postingKind = g.postingKind;
    popup.postingIndex = i;
    popup.openOn(map);
    return popup;
  }

  // -- layers -----------------------------------------------------------------------------
  function pathOptions(extra) {
    var o = { renderer: renderer };
    for (var k in extra) o[k] = extra[k];
    return o;
  }

  function parcelStyle(status) {
    var c = ctx.colors.status[status] || "#999999";
    if (status === "unposted") {
      return pathOptions({
        color: ctx.colors.gap.unmarked,
        weight: 3,
        opacity: 0.9,
        fillColor: c,
        fillOpacity: 0.35,
        className: "posting-parcel posting-parcel-unposted",
      });
    }
    return pathOptions({
      color: c,
      weight: 2,
      opacity: 1,
      fillColor: c,
      fillOpacity: 0.3,
      className: "posting-parcel posting-parcel-" + (ctx.colors.status[status] ? status : "other"),
    });
  }

  var STRETCH_STYLE = {
    water: function () {
      return { color: ctx.colors.water, weight: 6, opacity: 0.9, className: "posting-water" };
    },
    easements: function () {
      return { color: ctx.colors.easements, weight: 5, opacity: 0.8, className: "posting-easements" };
    },
    fences: function () {
      return { color: ctx.colors.fences, weight: 4, opacity: 0.9, dashArray: "6 6", className: "posting-fences" };
    },
  };

  function addPath(g, path, i) {
    path._pi = i;
    g.addLayer(path);
    return path;
  }

  // A dashed line drawn as SVG is hit only on its dashes: a tap between two (an uncertain
  // gap's 8 px in every 20) went to the parcel under it. Under it goes the same line, solid
  // and unseen, that takes the taps (the canvas finds a line by its distance, dashes or not).
  function addDashed(g, make, ll, style, i) {
    if (style.dashArray && !ctx.canvas) {
      var hit = make(ll, pathOptions({ weight: style.weight, opacity: 0, fill: false, dashArray: null, className: "posting-hit" }));
      hit._hitOnly = true;
      addPath(g, hit, i);
    }
    return addPath(g, make(ll, style), i);
  }

  function drawShapes(g, data, polygons, style) {
    var geo = features(data, polygons);
    g.geo = geo;
    geo.f.forEach(function (feat, i) {
      addDashed(g, polygons ? L.polygon : L.polyline, latlngs(geo.c, feat, polygons), style(i), i);
    });
    return geo;
  }

  // Many points as one path of Leaflet's canvas renderer: drawn in one pass per style, found
  // under the pointer through a grid of cells. (On SVG, for a small map: one circle each.)
  var PointSet = L.Path.extend({
    options: { interactive: true, stroke: false, fill: false },

    initialize: function (pts, keyOf, styles, options) {
      L.setOptions(this, options);
      this._pts = pts;
      this._n = pts.n;
      this._styles = styles;
      var byKey = {};
      for (var i = 0; i < pts.n; i++) {
        var k = keyOf(i);
        (byKey[k] || (byKey[k] = [])).push(i);
      }
      this._byKey = byKey;
    },

    getBounds: function () {
      var b = L.latLngBounds([]);
      for (var i = 0; i < this._n; i++) b.extend([this._pts.lat[i], this._pts.lon[i]]);
      return b;
    },

    _style: function (k) {
      return this._styles[k](this._map.getZoom());
    },

    _project: function () {
      var map = this._map;
      var n = this._n;
      if (!this._p0) {
        this._p0 = new Float64Array(2 * n);
        for (var i = 0; i < n; i++) {
          var q = map.project([this._pts.lat[i], this._pts.lon[i]], 0);
          this._p0[2 * i] = q.x;
          this._p0[2 * i + 1] = q.y;
        }
      }
      var s = map.getZoomScale(map.getZoom(), 0);
      var o = map.getPixelOrigin();
      var px = this._px || (this._px = new Float64Array(2 * n));
      var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (var j = 0; j < n; j++) {
        var x = (px[2 * j] = this._p0[2 * j] * s - o.x);
        var y = (px[2 * j + 1] = this._p0[2 * j + 1] * s - o.y);
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
      var r = 0;
      for (var k in this._byKey) {
        var st = this._style(k);
        r = Math.max(r, st.radius + (st.weight || 0));
      }
      this._r = r;
      this._pxBounds = n ? L.bounds([x0 - r, y0 - r], [x1 + r, y1 + r]) : null;
      this._grid = null;
    },

    _update: function () {
      if (this._map) this._updatePath();
    },

    _updatePath: function () {
      var rd = this._renderer;
      if (!rd._drawing || !this._n) return;
      var ctx = rd._ctx;
      var b = rd._redrawBounds || rd._bounds;
      var px = this._px;
      for (var k in this._byKey) {
        var st = this._style(k);
        var idx = this._byKey[k];
        var r = st.radius;
        var m = r + (st.weight || 0);
        var xmin = b.min.x - m, xmax = b.max.x + m, ymin = b.min.y - m, ymax = b.max.y + m;
        var dot = r <= 2.5; // a dot that small is drawn as a square: the same to the eye, cheaper
        ctx.beginPath();
        for (var j = 0; j < idx.length; j++) {
          var x = px[2 * idx[j]];
          var y = px[2 * idx[j] + 1];
          if (x < xmin || x > xmax || y < ymin || y > ymax) continue;
          if (dot) {
            ctx.rect(x - r, y - r, 2 * r, 2 * r);
          } else {
            ctx.moveTo(x + r, y);
            ctx.arc(x, y, r, 0, 2 * Math.PI);
          }
        }
        ctx.globalAlpha = st.fillOpacity;
        ctx.fillStyle = st.fillColor;
        ctx.fill();
        if (st.weight) {
          ctx.globalAlpha = 1;
          ctx.lineWidth = st.weight;
          ctx.strokeStyle = st.color;
          ctx.stroke();
        }
      }
      ctx.globalAlpha = 1;
    },

    _containsPoint: function (p) {
      var CELL = 32;
      var px = this._px;
      if (!px) return false;
      if (!this._grid) {
        var grid = new Map();
        for (var i = 0; i < this._n; i++) {
          var key = Math.floor(px[2 * i] / CELL) * 1048576 + Math.floor(px[2 * i + 1] / CELL);
          var list = grid.get(key);
          if (list) list.push(i);
          else grid.set(key, [i]);
        }
        this._grid = grid;
      }
      var reach = this._r + (this._renderer.options.tolerance || 0);
      var best = -1;
      var bestD = reach * reach;
      for (var gx = Math.floor((p.x - reach) / CELL); gx <= Math.floor((p.x + reach) / CELL); gx++) {
        for (var gy = Math.floor((p.y - reach) / CELL); gy <= Math.floor((p.y + reach) / CELL); gy++) {
          var cell = this._grid.get(gx * 1048576 + gy);
          if (!cell) continue;
          for (var j = 0; j < cell.length; j++) {
            var dx = px[2 * cell[j]] - p.x;
            var dy = px[2 * cell[j] + 1] - p.y;
            var d = dx * dx + dy * dy;
            if (d <= bestD) {
              bestD = d;
              best = cell[j];
            }
          }
        }
      }
      this._hit = best;
      return best >= 0;
    },
  });

  // style: {key(i), options(key) -> Leaflet path options (radius, colours), small(zoom)?}
  function drawPoints(g, data, style) {
    var c = coords(data.xy);
    g.pts = c;
    var cache = {};
    function options(key) {
      return cache[key] || (cache[key] = style.options(key));
    }
    if (ctx.canvas) {
      var styles = {};
      for (var i = 0; i < c.n; i++) {
        var key = style.key(i);
        if (!styles[key]) {
          styles[key] = (function (o) {
            return function (z) {
              return style.atZoom ? style.atZoom(o, z) : o;
            };
          })(options(key));
        }
      }
      g.addLayer(new PointSet(c, style.key, styles, { renderer: renderer }));
      return;
    }
    for (var j = 0; j < c.n; j++) {
      addPath(g, L.circleMarker([c.lat[j], c.lon[j]], pathOptions(options(style.key(j)))), j);
    }
  }

  // which feature of a layer an event is about
  function featureIndex(layer) {
    return layer instanceof PointSet ? layer._hit : layer._pi;
  }

  var KINDS = {
    parcels: function (g, data) {
      var rows = column(data.rows);
      g.rows = rows;
      var status = T.parcels.status(rows(0));
      var style = parcelStyle(status);
      var geo = drawShapes(g, data, true, function () {
        return style;
      });
      var at = coords(data.at);
      g.labels = geo.f.map(function (feat, i) {
        var row = rows(i);
        shapes[row] = { g: g, i: i, feat: feat };
        var key = String(T.parcels.id(row));
        if (!byId.has(key)) byId.set(key, []);
        byId.get(key).push(row);
        (T.parcels.part_ids(row) || []).forEach(function (part) {
          if (part === key) return;
          if (!partOf.has(part)) partOf.set(part, []);
          partOf.get(part).push(row);
        });
        return { lat: at.lat[i], lon: at.lon[i], text: key, bbox: bbox(geo.c, feat), kind: "parcel", feat: feat, c: geo.c };
      });
    },
    merged: function (g, data) {
      var rows = column(data.rows);
      g.rows = rows;
      var n = data.rows.d.length;
      for (var i = 0; i < n; i++) {
        var s = shapes[rows(i)];
        if (!s) continue;
        var ll = latlngs(s.g.geo.c, s.feat, true);
        addDashed(g, L.polygon, ll, pathOptions({ color: ctx.colors.merged, weight: 3, dashArray: "8 6", fill: false, className: "posting-merged" }), i);
      }
    },
    gaps: function (g, data) {
      var status = g.cols.status;
      var geo = drawShapes(g, data, false, function (i) {
        var s = status(i);
        return pathOptions({
          color: ctx.colors.gap[s] || ctx.colors.gap.over,
          weight: 8,
          opacity: 0.9,
          lineCap: "butt",
          dashArray: s === "uncertain" ? "12 8" : null,
          className: "posting-gap posting-gap-" + (ctx.colors.gap[s] ? s : "other"),
        });
      });
      g.labels = geo.f.map(function (feat, i) {
        var mid = midpoint(geo.c, feat);
        return { lat: mid[1], lon: mid[0], text: gapFigure(g.cols, i), kind: "gap", length: g.cols.length_ft(i) || 0, line: feat, c: geo.c };
      });
    },
    corners: function (g, data) {
      var status = g.cols.status;
      drawPoints(g, data, {
        key: status,
        options: function (s) {
          return {
            radius: 8,
            color: ctx.colors.corner[s] || ctx.colors.corner.missing,
            weight: 3,
            fillColor: "#ffffff",
            fillOpacity: 0.85,
            className: "posting-corner posting-corner-" + (ctx.colors.corner[s] ? s : "other"),
          };
        },
      });
    },
    access: function (g, data) {
      drawPoints(g, data, {
        key: g.cols.status,
        options: function () {
          return { radius: 7, color: ctx.colors.access, weight: 4, fillColor: "#ffffff", fillOpacity: 0.85, className: "posting-access" };
        },
      });
    },
    markers: function (g, data) {
      var parcel = g.cols.parcel;
      var uncounted = g.cols.uncounted;
      drawPoints(g, data, {
        key: function (i) {
          if (parcel(i) < 0) return "unassigned";
          return uncounted(i) ? "uncounted" : "assigned";
        },
        options: function (k) {
          return {
            radius: 4,
            color: k === "uncounted" ? ctx.colors.marker.assigned : "#ffffff",
            weight: 1.5,
            fillColor: ctx.colors.marker[k],
            fillOpacity: 1,
            className: "posting-marker posting-marker-" + k,
          };
        },
        // a county's signs zoomed out: small dots without an outline
        atZoom: function (o, z) {
          if (z >= 15) return o;
          return { radius: 2, weight: 0, fillColor: o.fillColor === "#ffffff" ? o.color : o.fillColor, fillOpacity: 1 };
        },
      });
    },
    planned: function (g, data) {
      drawPoints(g, data, {
        key: function () {
          return "planned";
        },
        options: function () {
          return { radius: 6, color: ctx.colors.planned, weight: 3, fillColor: "#ffffff", fillOpacity: 1, className: "posting-planned" };
        },
      });
    },
  };
  ["water", "easements", "fences"].forEach(function (kind) {
    KINDS[kind] = function (g, data) {
      var style = pathOptions(STRETCH_STYLE[kind]());
      drawShapes(g, data, false, function () {
        return style;
      });
    };
  });

  // The point halfway along a line (its longest part), for its label.
  function midpoint(c, feat) {
    var best = null;
    var bestLen = -1;
    feat.rings.forEach(function (se) {
      var len = 0;
      var k = Math.cos((c.lat[se[0]] * Math.PI) / 180);
      for (var i = se[0] + 1; i < se[1]; i++) len += Math.hypot((c.lon[i] - c.lon[i - 1]) * k, c.lat[i] - c.lat[i - 1]);
      if (len > bestLen) {
        bestLen = len;
        best = se;
      }
    });
    if (!best) return [0, 0];
    var k = Math.cos((c.lat[best[0]] * Math.PI) / 180);
    var half = bestLen / 2;
    for (var i = best[0] + 1; i < best[1]; i++) {
      var s = Math.hypot((c.lon[i] - c.lon[i - 1]) * k, c.lat[i] - c.lat[i - 1]);
      if (s >= half && s > 0) {
        var t = half / s;
        return [c.lon[i - 1] + t * (c.lon[i] - c.lon[i - 1]), c.lat[i - 1] + t * (c.lat[i] - c.lat[i - 1])];
      }
      half -= s;
    }
    return [c.lon[best[0]], c.lat[best[0]]];
  }

  // one tooltip for the whole map, following the pointer, saying what is under it
  var tip = null;
  var tipKey = null;
  function hoverTips(g) {
    g.on("mousemove mouseover", function (e) {
      var i = featureIndex(e.layer);
      if (i === undefined || i < 0) return;
      var key = L.stamp(g) + ":" + i;
      if (!tip) tip = L.tooltip({ direction: "auto", className: "posting-tip", offset: [12, 0] });
      if (key !== tipKey) {
        var text = tipText(g, i);
        if (text === null || text === undefined) return;
        tip.setContent(el("span", null, text));
        tipKey = key;
      }
      tip.setLatLng(e.latlng);
      if (!map.hasLayer(tip)) map.openTooltip(tip);
    });
    g.on("mouseout", function () {
      if (tip) map.closeTooltip(tip);
      tipKey = null;
    });
  }

  function layer(kind, data) {
    var g = L.featureGroup();
    g.postingKind = kind;
    g.data = data;
    g.cols = table(data, ["xy", "n", "rows", "at", "attrs", "clause"]);
    g.cols.parcel = g.cols.parcel || function () {};
    ["status", "length_ft", "straight_ft", "measured_ft", "figure", "limit_ft", "limit_words", "from_source", "from_row", "to_source", "to_row", "hole", "part",
      "type", "nearest_ft", "neighbour_ft", "shared", "turn_deg", "source", "row", "how", "distance_ft", "reason", "holder",
      "uncounted"].forEach(function (k) {
      g.cols[k] = g.cols[k] || function () {};
    });
    g.attrs = table(data.attrs || {});
    KINDS[kind](g, data);
    g.on("click", function (e) {
      L.DomEvent.stopPropagation(e);
      var i = featureIndex(e.layer);
      if (i >= 0) openPopup(g, i, g.pts ? L.latLng(g.pts.lat[i], g.pts.lon[i]) : e.latlng);
    });
    if (!touch) hoverTips(g);
    groups.push(g);
    return g;
  }

  // -- labels: gap lengths and parcel ids, only where they fit, never one over another -------
  var labelPane = null;
  var labelPool = [];
  var measureCtx = null;
  var LABEL_H = 18;
  var MAX_LABELS = 400;

  function textWidth(text, bold) {
    if (!measureCtx) measureCtx = document.createElement("canvas").getContext("2d");
    var font = (bold ? "700 " : "600 ") + "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
    if (measureCtx.font !== font) measureCtx.font = font;
    return Math.ceil(measureCtx.measureText(text).width) + 10;
  }

  // in pixels at zoom 0: where each label goes, the size of its parcel or the length of its gap
  function prepareLabels(g) {
    if (g.labels0) return g.labels0;
    g.labels0 = g.labels.map(function (it) {
      var p = map.project([it.lat, it.lon], 0);
      var o = { x: p.x, y: p.y, text: it.text, kind: it.kind, w: 0 };
      if (it.kind === "gap") {
        var len = 0;
        it.line.rings.forEach(function (se) {
          var prev = null;
          for (var i = se[0]; i < se[1]; i++) {
            var q = map.project([it.c.lat[i], it.c.lon[i]], 0);
            if (prev) len += prev.distanceTo(q);
            prev = q;
          }
        });
        o.size = len;
        o.rank = -it.length;
      } else {
        var a = map.project([it.bbox[1], it.bbox[0]], 0);
        var b = map.project([it.bbox[3], it.bbox[2]], 0);
        o.bw = Math.abs(b.x - a.x);
        o.bh = Math.abs(b.y - a.y);
        o.rank = 1;
        o.it = it; // its outline, projected when a label first might fit (outlineAt0)
      }
      return o;
    });
    return g.labels0;
  }

  // a parcel's rings in pixels at zoom 0, made once
  function outlineAt0(o) {
    if (!o.rings) {
      var c = o.it.c;
      o.rings = o.it.feat.rings.map(function (se) {
        var xy = new Float64Array(2 * (se[1] - se[0]));
        for (var i = se[0]; i < se[1]; i++) {
          var q = map.project([c.lat[i], c.lon[i]], 0);
          xy[2 * (i - se[0])] = q.x;
          xy[2 * (i - se[0]) + 1] = q.y;
        }
        return xy;
      });
    }
    return o.rings;
  }

  // whether a label of w x h pixels at this zoom's scale, centred on the parcel's label point,
  // lies inside its outline: its corners and the middles of its sides inside, no edge across it
  function fitsInside(o, w, h, scale) {
    var rings = outlineAt0(o);
    var hw = w / 2 / scale;
    var hh = h / 2 / scale;
    var x0 = o.x - hw, x1 = o.x + hw, y0 = o.y - hh, y1 = o.y + hh;
    var pts = [[x0, y0], [x1, y0], [x0, y1], [x1, y1], [o.x, y0], [o.x, y1], [x0, o.y], [x1, o.y]];
    for (var k = 0; k < pts.length; k++) {
      var px = pts[k][0], py = pts[k][1], odd = false;
      rings.forEach(function (xy) {
        var n = xy.length >> 1;
        for (var i = 0, j = n - 1; i < n; j = i++) {
          var yi = xy[2 * i + 1], yj = xy[2 * j + 1];
          if (yi > py !== yj > py && px < xy[2 * j] + ((py - yj) * (xy[2 * i] - xy[2 * j])) / (yi - yj)) odd = !odd;
        }
      });
      if (!odd) return false;
    }
    // no vertex of the outline inside the box (a notch reaching into it)
    for (var r = 0; r < rings.length; r++) {
      var v = rings[r];
      for (var m = 0; m < v.length; m += 2) {
        if (v[m] > x0 && v[m] < x1 && v[m + 1] > y0 && v[m + 1] < y1) return false;
      }
    }
    return true;
  }

  function placeLabels() {
    if (!map || !labelPane || !map._loaded) return;
    var scale = Math.pow(2, map.getZoom());
    var origin = map.getPixelOrigin();
    var view = map.getPixelBounds();
    var cand = [];
    groups.forEach(function (g) {
      if (!g.labels || !map.hasLayer(g)) return;
      prepareLabels(g).forEach(function (o) {
        var x = o.x * scale;
        var y = o.y * scale;
        if (x < view.min.x || x > view.max.x || y < view.min.y || y > view.max.y) return;
        // a lower bound of the width first: most labels of a county do not fit when zoomed out
        var w = o.w || o.text.length * 5 + 10;
        if (o.kind === "gap" ? o.size * scale < w : o.bw * scale < w + 4 || o.bh * scale < LABEL_H + 2) return;
        if (!o.w) {
          o.w = textWidth(o.text, o.kind === "gap");
          if (o.kind === "gap" ? o.size * scale < o.w : o.bw * scale < o.w + 4) return;
        }
        // a parcel's id only inside its outline, never over the neighbours' land
        if (o.kind !== "gap" && !fitsInside(o, o.w + 4, LABEL_H + 2, scale)) return;
        cand.push({ o: o, x: x - origin.x, y: y - origin.y });
      });
    });
    cand.sort(function (a, b) {
      return a.o.rank - b.o.rank;
    });
    // greedy: the longest gaps first, then parcel ids; a grid of 64 px cells finds neighbours
    var cells = new Map();
    var placed = [];
    for (var k = 0; k < cand.length && placed.length < MAX_LABELS; k++) {
      var c = cand[k];
      var box = [c.x - c.o.w / 2 - 2, c.y - LABEL_H / 2 - 2, c.x + c.o.w / 2 + 2, c.y + LABEL_H / 2 + 2];
      var x0 = Math.floor(box[0] / 64), x1 = Math.floor(box[2] / 64);
      var y0 = Math.floor(box[1] / 64), y1 = Math.floor(box[3] / 64);
      var free = true;
      for (var gx = x0; gx <= x1 && free; gx++) {
        for (var gy = y0; gy <= y1 && free; gy++) {
          var list = cells.get(gx * 100003 + gy);
          if (!list) continue;
          for (var j = 0; j < list.length; j++) {
            var b = list[j];
            if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) {
              free = false;
              break;
            }
          }
        }
      }
      if (!free) continue;
      for (gx = x0; gx <= x1; gx++) {
        for (gy = y0; gy <= y1; gy++) {
          var key = gx * 100003 + gy;
          if (!cells.has(key)) cells.set(key, []);
          cells.get(key).push(box);
        }
      }
      placed.push(c);
    }
    while (labelPool.length < placed.length) {
      var e = el("div");
      labelPane.appendChild(e);
      labelPool.push(e);
    }
    placed.forEach(function (c, i) {
      var e = labelPool[i];
      var cls = c.o.kind === "gap" ? "posting-gap-label" : "posting-label";
      if (e.className !== cls) e.className = cls;
      if (e.textContent !== c.o.text) e.textContent = c.o.text;
      e.style.width = c.o.w + "px";
      e.style.display = "";
      L.DomUtil.setPosition(e, L.point(Math.round(c.x - c.o.w / 2), Math.round(c.y - LABEL_H / 2)));
    });
    for (var i = placed.length; i < labelPool.length; i++) labelPool[i].style.display = "none";
  }

  // -- controls ---------------------------------------------------------------------------
  function control(position, build) {
    var C = L.Control.extend({
      options: { position: position },
      onAdd: function () {
        var box = build();
        L.DomEvent.disableClickPropagation(box);
        L.DomEvent.disableScrollPropagation(box);
        return box;
      },
    });
    return new C();
  }

  function titleBox() {
    var box = el("div", "posting-title");
    var h = el("h1", null, ctx.title);
    box.appendChild(h);
    var sub = [ctx.citation, ctx.checked ? "checked " + ctx.checked : null].filter(Boolean);
    box.appendChild(el("div", "posting-subtitle", sub.join(" · ")));
    var counts = el("div", "posting-counts");
    counts.appendChild(el("span", null, num(ctx.parcels, 0) + " parcels: "));
    ctx.counts.forEach(function (c, i) {
      var s = el("span", "posting-count", num(c.n, 0) + " " + c.status);
      s.style.setProperty("--c", c.color);
      counts.appendChild(s);
      if (i < ctx.counts.length - 1) counts.appendChild(document.createTextNode(" · "));
    });
    box.appendChild(counts);
    // on a phone the title is one line; a tap shows the rest
    h.setAttribute("role", "button");
    h.setAttribute("aria-expanded", "false");
    h.addEventListener("click", function () {
      var open = box.classList.toggle("posting-title-open");
      h.setAttribute("aria-expanded", open ? "true" : "false");
    });
    return box;
  }

  function searchBox() {
    var box = el("div", "posting-search leaflet-bar");
    var input = el("input");
    input.type = "search";
    input.placeholder = "Find parcel id";
    input.setAttribute("list", "posting-ids");
    input.setAttribute("aria-label", "Find a parcel by its id");
    input.setAttribute("enterkeyhint", "search");
    var list = el("datalist");
    list.id = "posting-ids";
    // every id, drawn or not (one not drawn is named with the reason)
    var offered = new Set(byId.keys());
    partOf.forEach(function (rows, id) {
      offered.add(id);
    });
    ctx.off_map.parcels.forEach(function (p) {
      offered.add(String(p.id));
    });
    offered.forEach(function (id) {
      var o = document.createElement("option");
      o.value = id;
      list.appendChild(o);
    });
    var msg = el("div", "posting-search-msg");
    box.appendChild(input);
    box.appendChild(list);
    box.appendChild(msg);
    var searched = null;
    function go() {
      searched = input.value;
      msg.textContent = find(input.value);
      // ids that differ only in case from what was typed, none the same: each a link
      findChoices.forEach(function (id, k) {
        var a = el("a", "posting-choice", id);
        a.href = "#";
        a.addEventListener("click", function (e) {
          e.preventDefault();
          input.value = id;
          // after the click: the link goes with the message, and Leaflet takes a click on a
          // link no longer in the box for a click on the map, which closes the popup
          setTimeout(go, 0);
        });
        msg.appendChild(document.createTextNode(k ? ", " : " "));
        msg.appendChild(a);
      });
    }
    input.addEventListener("change", function () {
      // (not again for the value just searched: leaving the box for one of the ids it
      // listed would list them anew under the pointer, and the tap would find nothing)
      if (input.value !== searched) go();
    });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter") go();
    });
    return box;
  }

  function openParcel(row) {
    var s = shapes[row];
    if (!s) return null;
    if (!map.hasLayer(s.g)) map.addLayer(s.g);
    var lab = s.g.labels[s.i];
    return openPopup(s.g, s.i, L.latLng(lab.lat, lab.lon));
  }

  // an id as typed: spaces around it and the case of its letters do not matter
  function idKey(text) {
    return String(text).trim().toLowerCase();
  }

  // every place an id is, by how it compares with what was typed: the parcels drawn, the
  // parcels merged into a property (the property's rows), the parcels not drawn
  function idsMatching(same) {
    var out = [];
    byId.forEach(function (rows, k) {
      if (same(k)) out.push({ id: k, rows: rows });
    });
    partOf.forEach(function (rows, k) {
      if (same(k)) out.push({ id: k, rows: rows, part: true });
    });
    ctx.off_map.parcels.forEach(function (p) {
      if (same(String(p.id))) out.push({ id: String(p.id), off: p });
    });
    return out;
  }

  // what an id names: as given (picked from the list, spaces and all), else as typed without
  // the spaces around it, else (only then) the same but for the case of its letters: "a-1"
  // typed finds parcel a-1 though A-1 is listed first. Each a list (an id may be in several
  // places), the first drawn first.
  function lookupId(raw) {
    var id = raw.trim();
    var key = idKey(raw);
    var hits = idsMatching(function (k) {
      return k === raw;
    });
    if (!hits.length) {
      hits = idsMatching(function (k) {
        return k === id;
      });
    }
    if (!hits.length) {
      hits = idsMatching(function (k) {
        return idKey(k) === key;
      });
    }
    return hits;
  }

  // an invisible bidirectional control as its code point, as the page shows every text (an
  // id pasted from the JSON report, which has the control itself, is found)
  function shownControls(text) {
    return String(text).replace(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, function (c) {
      return "[U+" + ("000" + c.charCodeAt(0).toString(16).toUpperCase()).slice(-4) + "]";
    });
  }

  var findChoices = []; // the ids the last search could mean, none of them as typed

  function find(text) {
    var raw = shownControls(text);
    var id = raw.trim();
    findChoices = [];
    if (!id) return "";
    map.closePopup(); // whatever was open belongs to the previous search
    var hits = lookupId(raw);
    if (!hits.length) return "No parcel " + id;
    var ids = [];
    hits.forEach(function (h) {
      if (ids.indexOf(h.id) < 0) ids.push(h.id);
    });
    if (ids.length > 1) {
      // several ids differ from it only in case (a-1, A-1): which is meant is the officer's
      // to say, not the first's
      findChoices = ids.sort();
      return "No parcel " + id + " as typed; " + ids.length + " differ only in case:";
    }
    var hit = hits.filter(function (h) {
      return h.rows && !h.part;
    })[0] || hits.filter(function (h) {
      return h.part;
    })[0] || hits[0];
    if (hit.off) return "Parcel " + hit.id + " is not on the map: " + (hit.off.reason || hit.off.status);
    var rows = hit.rows;
    var bounds = L.latLngBounds([]);
    rows.forEach(function (row) {
      var s = shapes[row];
      var b = bbox(s.g.geo.c, s.feat);
      bounds.extend([[b[1], b[0]], [b[3], b[2]]]);
    });
    map.fitBounds(bounds, { maxZoom: 18, padding: [40, 40], animate: false });
    openParcel(rows[0]);
    if (hit.part) return hit.id + " is part of property " + T.parcels.id(rows[0]) + " (merged: the same owner's adjoining parcels)";
    return rows.length > 1 ? rows.length + " parcels have this id" : "";
  }

  function legendBox() {
    // open on a laptop, folded on a phone; opened whole for printing
    var box = el("details", "posting-legend");
    box.open = window.innerWidth >= 700 && window.innerHeight >= 600;
    var head = el("summary");
    head.appendChild(el("h2", null, "Legend"));
    box.appendChild(head);
    ctx.legend.forEach(function (item) {
      var r = el("div", "posting-legend-item");
      var sw = el("span", "posting-swatch posting-swatch-" + item.shape + (item.dashed ? " posting-dashed" : ""));
      sw.style.setProperty("--c", item.color);
      r.appendChild(sw);
      r.appendChild(el("span", null, item.label));
      box.appendChild(r);
    });
    var rule = el("p", "posting-rule");
    rule.appendChild(el("b", null, ctx.citation || ""));
    if (ctx.rule_text) rule.appendChild(document.createTextNode(": " + ctx.rule_text + "."));
    box.appendChild(rule);
    var m = ctx.markers;
    box.appendChild(
      el(
        "p",
        "posting-meta",
        num(m[0], 0) + " markers read, " + num(m[1], 0) + " assigned to a parcel, " + num(m[2], 0) + " not." +
          (ctx.accuracy_ft ? " Stated survey accuracy ± " + ft(ctx.accuracy_ft) + "." : "") +
          " Measured in " + ctx.crs + "."
      )
    );
    var offP = ctx.off_map.parcels;
    var offS = ctx.off_map.signs;
    if (offP.length || offS.length) {
      var d = el("details", "posting-offmap");
      d.appendChild(el("summary", null, "Not on the map (" + (offP.length + offS.length) + ")"));
      var ul = el("ul");
      offP.forEach(function (p) {
        ul.appendChild(el("li", null, "Parcel " + p.id + ": " + (p.reason || p.status)));
      });
      offS.forEach(function (s) {
        ul.appendChild(el("li", null, "Marker " + source(s.source, s.row) + ": " + s.reason));
      });
      d.appendChild(ul);
      box.appendChild(d);
    }
    var notes = [];
    ctx.not_checked.forEach(function (n) {
      notes.push("Not checked, " + ruleWord(n.rule) + ": " + n.reason);
    });
    ctx.warnings.forEach(function (w) {
      notes.push(w);
    });
    if (notes.length) {
      var dn = el("details", "posting-notes");
      dn.appendChild(el("summary", null, "Notes (" + notes.length + ")"));
      var un = el("ul");
      notes.forEach(function (n) {
        un.appendChild(el("li", null, n));
      });
      dn.appendChild(un);
      box.appendChild(dn);
    }
    return box;
  }

  // The legend grows up from the bottom right corner no higher than the controls above it.
  function fitLegend() {
    var legend = document.querySelector(".posting-legend");
    if (!legend) return;
    var top = map.getContainer().getBoundingClientRect().top;
    document.querySelectorAll(".leaflet-top.leaflet-right .leaflet-control").forEach(function (c) {
      top = Math.max(top, c.getBoundingClientRect().bottom);
    });
    var bottom = legend.getBoundingClientRect().bottom;
    legend.style.maxHeight = Math.max(80, bottom - top - 12) + "px";
  }

  // -- you are here -----------------------------------------------------------------------
  // Distances and directions on the WGS 84 ellipsoid: Vincenty's inverse formula (1975), good to
  // a fraction of a millimetre at the distances a map shows. Never in degrees. Longitudes are
  // compared the short way round, across the antimeridian too.
  var WGS84_A = 6378137;
  var WGS84_F = 1 / 298.257223563;
  var WGS84_B = WGS84_A * (1 - WGS84_F);
  var E2 = WGS84_F * (2 - WGS84_F);
  var RAD = Math.PI / 180;
  var FOOT = 0.3048;

  // a difference of longitudes in (-180, 180]
  function dLon(lon1, lon0) {
    var d = (lon1 - lon0) % 360;
    return d > 180 ? d - 360 : d <= -180 ? d + 360 : d;
  }

  // metres per degree of longitude and of latitude at a latitude (for finding the nearest
  // point of a line; the distance to it is then measured by distance())
  function metresPerDegree(lat) {
    var s = Math.sin(lat * RAD);
    var w = 1 - E2 * s * s;
    var n = WGS84_A / Math.sqrt(w);
    var m = (WGS84_A * (1 - E2)) / (w * Math.sqrt(w));
    return [n * Math.cos(lat * RAD) * RAD, m * RAD];
  }

  // from (lon0, lat0) to (lon1, lat1): feet along the geodesic and its azimuth at the start,
  // clockwise from true north, in degrees
  function distance(lon0, lat0, lon1, lat1) {
    var f = WGS84_F;
    var L = dLon(lon1, lon0) * RAD;
    var U1 = Math.atan((1 - f) * Math.tan(lat0 * RAD));
    var U2 = Math.atan((1 - f) * Math.tan(lat1 * RAD));
    var sinU1 = Math.sin(U1), cosU1 = Math.cos(U1), sinU2 = Math.sin(U2), cosU2 = Math.cos(U2);
    var lambda = L;
    var sinL, cosL, sinS, cosS, sigma, cos2a, cos2sm;
    for (var it = 0; it < 200; it++) {
      sinL = Math.sin(lambda);
      cosL = Math.cos(lambda);
      var x = cosU2 * sinL;
      var y = cosU1 * sinU2 - sinU1 * cosU2 * cosL;
      sinS = Math.sqrt(x * x + y * y);
      if (sinS === 0) return { ft: 0, deg: 0 }; // the same point
      cosS = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
      sigma = Math.atan2(sinS, cosS);
      var sinA = (cosU1 * cosU2 * sinL) / sinS;
      cos2a = 1 - sinA * sinA;
      cos2sm = cos2a !== 0 ? cosS - (2 * sinU1 * sinU2) / cos2a : 0; // 0 along the equator
      var C = (f / 16) * cos2a * (4 + f * (4 - 3 * cos2a));
      var prev = lambda;
      lambda = L + (1 - C) * f * sinA * (sigma + C * sinS * (cos2sm + C * cosS * (-1 + 2 * cos2sm * cos2sm)));
      if (Math.abs(lambda - prev) < 1e-13) break;
    }
    var u2 = (cos2a * (WGS84_A * WGS84_A - WGS84_B * WGS84_B)) / (WGS84_B * WGS84_B);
    var A = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
    var B = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
    var dS =
      B * sinS * (cos2sm + (B / 4) * (cosS * (-1 + 2 * cos2sm * cos2sm) -
        (B / 6) * cos2sm * (-3 + 4 * sinS * sinS) * (-3 + 4 * cos2sm * cos2sm)));
    var metres = WGS84_B * A * (sigma - dS);
    var az = Math.atan2(cosU2 * sinL, cosU1 * sinU2 - sinU1 * cosU2 * cosL) / RAD;
    return { ft: metres / FOOT, deg: ((az % 360) + 360) % 360 };
  }

  var COMPASS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
  function compass(deg) {
    return COMPASS[Math.round(deg / 45) % 8];
  }

  // the nearest point of the lines (rings) of one feature to (lon0, lat0): [lon, lat, d2]
  function nearestOnRings(c, feat, lon0, lat0, k, closed, best) {
    feat.rings.forEach(function (se) {
      var n = se[1] - se[0];
      if (!n) return;
      var segs = n === 1 ? 1 : closed ? n : n - 1;
      for (var j = 0; j < segs; j++) {
        var a = se[0] + j;
        var b = se[0] + ((j + 1) % n);
        var ax = dLon(c.lon[a], lon0) * k[0];
        var ay = (c.lat[a] - lat0) * k[1];
        var vx = dLon(c.lon[b], lon0) * k[0] - ax;
        var vy = (c.lat[b] - lat0) * k[1] - ay;
        var L2 = vx * vx + vy * vy;
        var t = L2 > 0 ? Math.max(0, Math.min(1, -(ax * vx + ay * vy) / L2)) : 0;
        var px = ax + t * vx;
        var py = ay + t * vy;
        var d2 = px * px + py * py;
        if (d2 < best.d2) {
          best.d2 = d2;
          best.lon = lon0 + px / k[0];
          best.lat = lat0 + py / k[1];
        }
      }
    });
    return best;
  }

  function inside(c, feat, lon, lat) {
    var odd = false;
    feat.rings.forEach(function (se) {
      for (var i = se[0], j = se[1] - 1; i < se[1]; j = i++) {
        if (c.lat[i] > lat !== c.lat[j] > lat) {
          var x = c.lon[j] + ((lat - c.lat[j]) * (c.lon[i] - c.lon[j])) / (c.lat[i] - c.lat[j]);
          if (lon < x) odd = !odd;
        }
      }
    });
    return odd;
  }

  // every parcel drawn that contains the point, with the distance to its boundary; and
  // (near) those that do not whose boundary is within reachFt of it
  function parcelsAt(lon, lat, reachFt) {
    var k = metresPerDegree(lat);
    var mx = (reachFt * FOOT) / k[0];
    var my = (reachFt * FOOT) / k[1];
    var out = [];
    var near = [];
    groups.forEach(function (g) {
      if (g.postingKind !== "parcels") return;
      g.labels.forEach(function (lab, i) {
        var b = lab.bbox;
        if (lon < b[0] - mx || lon > b[2] + mx || lat < b[1] - my || lat > b[3] + my) return;
        var feat = g.geo.f[i];
        var isIn = lon >= b[0] && lon <= b[2] && lat >= b[1] && lat <= b[3] && inside(g.geo.c, feat, lon, lat);
        var best = nearestOnRings(g.geo.c, feat, lon, lat, k, true, { d2: Infinity });
        var hit = { row: g.rows(i), edge: distance(lon, lat, best.lon, best.lat) };
        if (isIn) out.push(hit);
        else if (hit.edge.ft <= reachFt) near.push(hit);
      });
    });
    near.sort(function (a, b) {
      return a.edge.ft - b.edge.ft;
    });
    out.near = near;
    return out;
  }

  // the nearest thing to go to: a planned marker (the plan's map), or a gap, a corner or an
  // access point without a marker, or the boundary of an unposted parcel (the check's map)
  function nearestTarget(lon, lat) {
    var k = metresPerDegree(lat);
    var best = { d2: Infinity };
    var what = null;
    groups.forEach(function (g) {
      var kind = g.postingKind;
      var wanted = ctx.target === "planned" ? kind === "planned" : ["gaps", "corners", "access", "parcels"].indexOf(kind) >= 0;
      if (!wanted) return;
      if (kind === "parcels") {
        if (T.parcels.status(g.rows(0)) !== "unposted") return;
        g.geo.f.forEach(function (feat, i) {
          var d0 = best.d2;
          nearestOnRings(g.geo.c, feat, lon, lat, k, true, best);
          if (best.d2 < d0) what = { g: g, i: i, kind: "unposted" };
        });
      } else if (g.geo) {
        g.geo.f.forEach(function (feat, i) {
          var d0 = best.d2;
          nearestOnRings(g.geo.c, feat, lon, lat, k, false, best);
          if (best.d2 < d0) what = { g: g, i: i, kind: kind };
        });
      } else if (g.pts) {
        var c = g.pts;
        for (var i = 0; i < c.n; i++) {
          var dx = dLon(c.lon[i], lon) * k[0];
          var dy = (c.lat[i] - lat) * k[1];
          var d2 = dx * dx + dy * dy;
          if (d2 < best.d2) {
            best = { d2: d2, lon: lon + dLon(c.lon[i], lon), lat: c.lat[i] }; // on the device's side of 180°
            what = { g: g, i: i, kind: kind };
          }
        }
      }
    });
    if (!what) return null;
    what.lon = best.lon;
    what.lat = best.lat;
    what.to = distance(lon, lat, best.lon, best.lat);
    return what;
  }

  function targetWords(t) {
    var g = t.g;
    var d = g.cols;
    switch (t.kind) {
      case "planned":
        var name = g.attrs.name ? g.attrs.name(t.i) : null;
        var role = g.attrs.role ? g.attrs.role(t.i) : null;
        var pid = g.attrs.parcel_id ? g.attrs.parcel_id(t.i) : null;
        return ["Nearest marker to add", [name, role, pid ? "parcel " + pid : null].filter(Boolean).join(", ")];
      case "gaps":
        return ["Nearest gap", gapFigure(d, t.i) + " gap on parcel " + parcelId(d.parcel(t.i))];
      case "corners":
        return ["Nearest corner without a marker", "parcel " + parcelId(d.parcel(t.i))];
      case "access":
        return ["Nearest access point without a marker", "parcel " + parcelId(d.parcel(t.i))];
      default:
        return ["Nearest unposted boundary", "parcel " + T.parcels.id(g.rows(t.i))];
    }
  }

  var here = { watch: null, dot: null, circle: null, line: null, panel: null, fixes: 0 };
  var NEAR_SHOWN = 5; // parcels named that the device may be in though it is not, as it stands

  function hereBox() {
    var box = el("div", "posting-here");
    box.hidden = true;
    here.panel = box;
    return box;
  }

  function locateButton() {
    var box = el("div", "leaflet-bar posting-locate");
    var a = el("a");
    a.href = "#";
    a.setAttribute("role", "button");
    a.title = "You are here: show my position (from this device; nothing is sent)";
    a.setAttribute("aria-label", "Show my position");
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    [["circle", { cx: 12, cy: 12, r: 7, fill: "none", stroke: "currentColor", "stroke-width": 2 }],
     ["circle", { cx: 12, cy: 12, r: 2.5, fill: "currentColor" }],
     ["path", { d: "M12 1v4M12 19v4M1 12h4M19 12h4", stroke: "currentColor", "stroke-width": 2 }]].forEach(function (s) {
      var e = document.createElementNS("http://www.w3.org/2000/svg", s[0]);
      Object.keys(s[1]).forEach(function (k) {
        e.setAttribute(k, s[1][k]);
      });
      svg.appendChild(e);
    });
    a.appendChild(svg);
    box.appendChild(a);
    L.DomEvent.on(a, "click", function (e) {
      L.DomEvent.preventDefault(e);
      locate();
    });
    return box;
  }

  function showHere(children) {
    var p = here.panel;
    while (p.firstChild) p.removeChild(p.firstChild);
    var close = el("button", "posting-here-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Stop showing my position");
    close.addEventListener("click", stopHere);
    p.appendChild(close);
    // the text scrolls under the × (a coarse first fix near many parcels made the panel taller
    // than the screen, the × above its top)
    var body = el("div", "posting-here-body");
    children.forEach(function (c) {
      body.appendChild(c);
    });
    p.appendChild(body);
    p.hidden = false;
  }

  function stopHere() {
    if (here.watch !== null && navigator.geolocation) navigator.geolocation.clearWatch(here.watch);
    here.watch = null;
    here.fixes = 0;
    ["dot", "circle", "line"].forEach(function (k) {
      if (here[k]) map.removeLayer(here[k]);
      here[k] = null;
    });
    here.panel.hidden = true;
  }

  function locate() {
    if (here.watch !== null && here.dot) {
      map.setView(here.dot.getLatLng(), Math.max(map.getZoom(), 17));
      return;
    }
    if (!navigator.geolocation) {
      showHere([el("p", "posting-here-error", "This browser cannot tell where it is.")]);
      return;
    }
    // pressed again before a fix (or after an error): ask afresh, one watch at a time (the ×
    // stops the one there is; a first one left running brought the dot back)
    if (here.watch !== null) navigator.geolocation.clearWatch(here.watch);
    showHere([el("p", null, "Finding your position…")]);
    here.watch = navigator.geolocation.watchPosition(onPosition, onPositionError, {
      enableHighAccuracy: true,
      maximumAge: 5000,
      timeout: 60000,
    });
  }

  function onPositionError(err) {
    var why = {
      1: "the browser was not allowed to use this device's position",
      2: "the position is not available (no GPS fix yet?)",
      3: "no position came in time",
    }[err.code] || err.message;
    showHere([el("p", "posting-here-error", "No position: " + why + ".")]);
  }

  function onPosition(pos) {
    var lat = pos.coords.latitude;
    var lon0 = pos.coords.longitude;
    // on a map of land both sides of 180°, west longitudes are drawn east of 180 (lon + 360)
    var lon = ctx.east_of_180 && lon0 < 0 ? lon0 + 360 : lon0;
    var acc = pos.coords.accuracy; // metres, 95 % by the specification's wording
    var ll = L.latLng(lat, lon);
    if (!here.dot) {
      here.circle = L.circle(ll, { radius: acc, color: ctx.colors.here, weight: 1, fillOpacity: 0.12, interactive: false, className: "posting-here-accuracy" }).addTo(map);
      here.dot = L.circleMarker(ll, { radius: 8, color: "#ffffff", weight: 3, fillColor: ctx.colors.here, fillOpacity: 1, interactive: false, className: "posting-here-dot" }).addTo(map);
    } else {
      here.circle.setLatLng(ll).setRadius(acc);
      here.dot.setLatLng(ll);
    }
    var accFt = acc / FOOT;
    var rows = [];
    var pos0 = el("p", "posting-here-pos");
    pos0.appendChild(el("b", null, "You are here: "));
    pos0.appendChild(document.createTextNode(lat.toFixed(6) + ", " + lon0.toFixed(6) + " (± " + num(accFt, 0) + " ft)"));
    rows.push(pos0);
    var inParcels = parcelsAt(lon, lat, accFt);
    var pp = el("div", "posting-here-parcel");
    if (!inParcels.length) {
      pp.appendChild(el("p", null, "Outside every parcel on the map."));
    }
    inParcels.forEach(function (hit) {
      var line = el("p");
      line.dataset.parcel = T.parcels.id(hit.row);
      line.dataset.status = T.parcels.status(hit.row);
      line.appendChild(document.createTextNode("In parcel "));
      line.appendChild(parcelLink(hit.row));
      line.appendChild(document.createTextNode(" "));
      var badge = statusBadge(T.parcels.status(hit.row));
      badge.classList.add("posting-status-inline");
      badge.textContent = statusWord(T.parcels.status(hit.row));
      line.appendChild(badge);
      line.appendChild(el("span", "posting-here-edge", "its boundary is " + num(hit.edge.ft, 0) + " ft " + compass(hit.edge.deg)));
      if (hit.edge.ft <= accFt) {
        line.appendChild(el("div", "posting-note", "The boundary is within the position's accuracy: which side you are on is not certain."));
      }
      pp.appendChild(line);
    });
    // a parcel the device is not in, as far as its position says, but may be: the nearest few
    inParcels.near.slice(0, NEAR_SHOWN).forEach(function (hit) {
      var line = el("p", "posting-here-near");
      line.dataset.near = T.parcels.id(hit.row);
      line.appendChild(document.createTextNode("Parcel "));
      line.appendChild(parcelLink(hit.row));
      line.appendChild(
        document.createTextNode(
          "'s boundary is " + num(hit.edge.ft, 0) + " ft " + compass(hit.edge.deg) + ", within the position's accuracy: you may be in it (" +
            statusWord(T.parcels.status(hit.row)) + ")."
        )
      );
      pp.appendChild(line);
    });
    var more = inParcels.near.length - NEAR_SHOWN;
    if (more > 0) {
      pp.appendChild(
        el("p", "posting-here-more", "… and " + more + " more parcel" + (more > 1 ? "s" : "") + " whose boundary is within the position's accuracy (± " +
          num(accFt, 0) + " ft): a closer fix will tell.")
      );
    }
    rows.push(pp);
    var t = nearestTarget(lon, lat);
    var tp = el("p", "posting-here-target");
    if (t) {
      var words = targetWords(t);
      tp.dataset.distanceFt = t.to.ft.toFixed(4);
      tp.dataset.bearingDeg = t.to.deg.toFixed(3);
      tp.dataset.kind = t.kind;
      tp.appendChild(el("b", null, words[0] + ": "));
      tp.appendChild(el("span", "posting-here-distance", num(t.to.ft, 0) + " ft " + compass(t.to.deg) + " (bearing " + num(t.to.deg, 0) + "° true)"));
      tp.appendChild(document.createTextNode(", " + words[1]));
      var target = L.latLng(t.lat, t.lon);
      if (here.line) here.line.setLatLngs([ll, target]);
      else here.line = L.polyline([ll, target], { color: ctx.colors.here, weight: 3, dashArray: "4 6", interactive: false, className: "posting-here-line" }).addTo(map);
      if (!here.fixes) map.fitBounds(L.latLngBounds([ll, target]), { maxZoom: 18, padding: [60, 60] });
    } else {
      tp.textContent = ctx.target === "planned" ? "No marker to add on this map." : "No gap or corner without a marker on this map.";
      if (!here.fixes) map.setView(ll, Math.max(map.getZoom(), 17));
    }
    rows.push(tp);
    here.fixes++;
    showHere(rows);
  }

  // -- setup ------------------------------------------------------------------------------
  function setup(m, context, tables) {
    map = m;
    ctx = context;
    touch = !!(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
    T.parcels = table(tables.parcels);
    ["owner", "status", "rules", "exemption", "posted_by", "area_acres", "recorded_acres", "perimeter_ft", "signs",
      "max_gap_ft", "corners", "missing_corners", "missing_access", "repaired", "duplicate_id", "water_frontage_ft",
      "easement_ft", "unfenced_ft", "source_ids", "part_ids"].forEach(function (k) {
      T.parcels[k] = col(T.parcels, k);
    });
    T.findings = table(tables.findings, ["clause"]);
    ["parcel", "level", "rule", "message", "measured", "limit", "unit"].forEach(function (k) {
      T.findings[k] = col(T.findings, k);
    });
    ctx.finding_clauses = tables.findings.clause || [];
    ctx.findings_n = ctx.finding_clauses.length;
    var tolerance = touch ? 12 : 4;
    renderer = ctx.canvas ? L.canvas({ padding: 0.1, tolerance: tolerance }) : L.svg({ padding: 0.25 });
    labelPane = map.createPane("postingLabels");
    labelPane.classList.add("leaflet-zoom-hide");
    control("topleft", titleBox).addTo(map);
    // the view fitted to the data before any layer is drawn: each is projected once
    if (ctx.bounds) map.fitBounds(ctx.bounds, { padding: [20, 20], maxZoom: 19, animate: false });
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll(".posting-legend, .posting-legend details").forEach(function (d) {
        d.open = true;
      });
      map.invalidateSize();
    });
    map.on("moveend zoomend overlayadd overlayremove resize", placeLabels);
    map.on("resize", fitLegend);
    window.postingMap = {
      map: map,
      layers: groups,
      find: find,
      locate: locate,
      labels: placeLabels,
      // open the popup of feature i of the first layer of a kind (tests, scripts/screenshot)
      open: function (kind, i) {
        var g = groups.filter(function (x) {
          return x.postingKind === kind;
        })[0];
        if (!g) return null;
        if (g.pts) return i < g.pts.n ? openPopup(g, i, L.latLng(g.pts.lat[i], g.pts.lon[i])) : null;
        if (g.labels) return i < g.labels.length ? openPopup(g, i, L.latLng(g.labels[i].lat, g.labels[i].lon)) : null;
        var path = g.getLayers().filter(function (l) {
          return l._pi === i && !l._hitOnly;
        })[0];
        return path ? openPopup(g, i, path.getCenter()) : null;
      },
      openParcel: function (id) {
        var rows = byId.get(String(id));
        return rows ? openParcel(rows[0]) : null;
      },
      count: function (kind) {
        return groups.filter(function (g) {
          return g.postingKind === kind;
        }).reduce(function (n, g) {
          return n + (g.pts ? g.pts.n : g.getLayers().filter(function (l) {
            return !l._hitOnly;
          }).length);
        }, 0);
      },
    };
  }

  // once every layer and the layer list are on the map
  function ready() {
    control("topleft", searchBox).addTo(map);
    L.control.zoom({ position: "topright" }).addTo(map);
    control("topright", locateButton).addTo(map);
    var phone = window.innerWidth < 600;
    if (!phone) control("bottomleft", hereBox).addTo(map);
    L.control.scale({ position: "bottomleft", imperial: true, metric: false, maxWidth: 160 }).addTo(map);
    control("bottomright", legendBox).addTo(map);
    // on a phone, across the screen above the folded legend
    if (phone) control("bottomright", hereBox).addTo(map);
    fitLegend();
    placeLabels();
  }

  return { setup: setup, ready: ready, layer: layer, find: find };
})();
