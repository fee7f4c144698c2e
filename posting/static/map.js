/* posting: the officer's map. Draws and explains the features that posting.maps embeds.
 *
 * Every text that comes from input files (ids, owners, sign attributes, file names) is set
 * with textContent, never parsed as HTML, so a name such as "<script>" shows as those
 * characters and runs nothing. Nothing here measures: every figure comes from the report.
 */
var posting = (function () {
  "use strict";

  var ctx = null;
  var map = null;
  var byId = new Map(); // parcel id -> [layer, ...]
  var groups = []; // every L.GeoJSON made by layer()
  var RULES = {
    spacing: "Spacing",
    corners: "Corners",
    letter_height: "Letter height",
    sign_text: "Words on the sign",
    name_on_sign: "Name on the sign",
    visibility: "Visibility",
    access: "Access points",
    water: "Water boundary",
  };
  var STATUS = {
    compliant: "Compliant: posted as the rule requires",
    noncompliant: "Noncompliant: posted, but not as the rule requires",
    uncertain: "Uncertain: a figure is within the stated survey accuracy of its limit",
    unposted: "Unposted: no marker at all",
    exempt: "Exempt",
    invalid: "Invalid: no usable geometry",
  };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function num(x, digits) {
    return Number(x).toLocaleString("en-US", {
      maximumFractionDigits: digits === undefined ? 1 : digits,
    });
  }

  function ft(x) {
    return x === undefined || x === null ? null : num(x) + " ft";
  }

  function qty(x, unit) {
    if (x === undefined || x === null) return null;
    return unit === "ft" ? ft(x) : num(x, 2) + (unit ? " " + unit : "");
  }

  function fact(table, label, value) {
    if (value === undefined || value === null || value === "") return;
    var tr = el("tr");
    tr.appendChild(el("th", null, label));
    tr.appendChild(el("td", null, value));
    table.appendChild(tr);
  }

  function source(pair) {
    // [file, row] -> "signs.csv row 12"
    var name = String(pair[0]).split(/[\\/]/).pop();
    return name + " row " + pair[1];
  }

  function clause(k) {
    return k === undefined || k === null ? null : ctx.clauses[k];
  }

  function findings(box, heading, items, cls) {
    if (!items || !items.length) return;
    box.appendChild(el("h4", "posting-h-" + cls, heading));
    var ul = el("ul", "posting-findings posting-" + cls);
    items.forEach(function (a) {
      var f = { rule: a[0], clause: clause(a[1]), message: a[2], measured: a[3], limit: a[4], unit: a[5] };
      var li = el("li");
      li.appendChild(el("b", null, RULES[f.rule] || String(f.rule).replace(/_/g, " ")));
      li.appendChild(document.createTextNode(": " + f.message));
      var figures = [];
      var measured = qty(f.measured, f.unit);
      var limit = qty(f.limit, f.unit);
      if (measured) figures.push("measured " + measured);
      if (limit) figures.push("limit " + limit);
      if (figures.length) li.appendChild(el("div", "posting-figures", figures.join(" · ")));
      if (f.clause) li.appendChild(el("div", "posting-clause", f.clause));
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }

  function statusBadge(status, text) {
    var known = Object.prototype.hasOwnProperty.call(STATUS, status);
    var b = el("div", "posting-status posting-status-" + (known ? status : "other"), text);
    var color = ctx.colors.status[status];
    if (color) b.style.setProperty("--c", color);
    return b;
  }

  // -- popups -----------------------------------------------------------------------------
  function parcelPopup(p) {
    var box = el("div", "posting-popup posting-popup-parcel");
    var h = el("h3", null, "Parcel ");
    h.appendChild(el("span", "posting-id", p.id));
    box.appendChild(h);
    box.appendChild(statusBadge(p.status, STATUS[p.status] || p.status));
    var t = el("table", "posting-facts");
    fact(t, "Owner", p.owner);
    fact(t, "Exemption", p.exemption);
    fact(t, "Area", p.area_acres === undefined ? null : num(p.area_acres, 2) + " acres");
    fact(t, "Boundary", ft(p.perimeter_ft));
    fact(t, "Markers", p.signs);
    fact(t, "Longest gap", ft(p.max_gap_ft));
    if (p.corners !== undefined) {
      fact(
        t,
        "Corners",
        p.corners + (p.missing_corners ? " (" + p.missing_corners + " without a marker)" : "")
      );
    }
    fact(t, "Access points without a marker", p.missing_access);
    fact(t, "Water frontage", ft(p.water_frontage_ft));
    if (p.source_ids) fact(t, "Merged from parcels", p.source_ids.join(", "));
    box.appendChild(t);
    findings(box, "Violations", p.violations, "violations");
    findings(box, "Uncertain", p.uncertain, "uncertain");
    findings(box, "Not checked", p.not_checked, "not-checked");
    findings(box, "Notes", p.notes, "notes");
    if (p.repaired) box.appendChild(el("p", "posting-note", "Geometry " + p.repaired));
    if (p.duplicate_id) {
      box.appendChild(el("p", "posting-note", "Another parcel has the same id; each is checked on its own."));
    }
    return box;
  }

  function gapPopup(g) {
    var box = el("div", "posting-popup posting-popup-gap");
    var h = el("h3", null, g.status === "unmarked" ? "Unmarked boundary of parcel " : "Gap on parcel ");
    h.appendChild(el("span", "posting-id", g.parcel));
    box.appendChild(h);
    var t = el("table", "posting-facts");
    fact(t, "Along the boundary", ft(g.length_ft));
    fact(t, "Straight line", ft(g.straight_ft));
    fact(t, "Limit", g.limit_ft === undefined ? null : "not more than " + ft(g.limit_ft));
    if (g.from) fact(t, "From marker", source(g.from));
    if (g.to) fact(t, "To marker", source(g.to));
    if (g.status === "unmarked") {
      var ring = g.hole ? "hole " + g.hole : "outer boundary";
      fact(t, "Ring", (g.part ? "part " + (g.part + 1) + ", " : "") + ring + ": no marker on it");
    }
    fact(t, "Verdict", {
      over: "longer than the limit",
      unmarked: "no marker on this whole ring",
      uncertain: "within the stated survey accuracy of the limit",
    }[g.status] || g.status);
    box.appendChild(t);
    if (g.clause !== undefined) box.appendChild(el("div", "posting-clause", clause(g.clause)));
    return box;
  }

  function cornerPopup(c) {
    var box = el("div", "posting-popup posting-popup-corner");
    var h = el(
      "h3",
      null,
      c.status === "missing" ? "Corner without a marker, parcel " : "Corner marked only within the survey accuracy, parcel "
    );
    h.appendChild(el("span", "posting-id", c.parcel));
    box.appendChild(h);
    var t = el("table", "posting-facts");
    fact(t, "Limit", c.limit_ft === undefined ? null : "a marker within " + ft(c.limit_ft));
    fact(t, "Nearest marker of the parcel", c.nearest_ft === undefined ? "none within the limit" : ft(c.nearest_ft));
    fact(t, "Nearest marker along this boundary", ft(c.neighbour_ft));
    fact(t, "Stated survey accuracy", c.accuracy_ft === undefined ? null : "± " + ft(c.accuracy_ft));
    fact(t, "Turn of the boundary", c.turn_deg === undefined ? null : num(c.turn_deg, 0) + "°");
    box.appendChild(t);
    if (c.clause !== undefined) box.appendChild(el("div", "posting-clause", clause(c.clause)));
    return box;
  }

  function markerPopup(m) {
    var box = el("div", "posting-popup posting-popup-marker");
    box.appendChild(el("h3", null, "Marker: " + source([m.source, m.row])));
    var t = el("table", "posting-facts");
    fact(t, "Parcel", m.assigned ? m.parcel : "none: " + (m.why || "not near any boundary"));
    if (m.assigned) fact(t, "Why this parcel", m.why);
    (m.attrs || []).forEach(function (kv) {
      fact(t, kv[0], kv[1]);
    });
    box.appendChild(t);
    return box;
  }

  function simplePopup(heading, p) {
    var box = el("div", "posting-popup");
    var h = el("h3", null, heading);
    if (p.parcel !== undefined) h.appendChild(el("span", "posting-id", p.parcel));
    box.appendChild(h);
    var t = el("table", "posting-facts");
    fact(t, "Length", ft(p.length_ft));
    box.appendChild(t);
    return box;
  }

  function label(text) {
    return function () {
      return el("span", null, text);
    };
  }

  // -- layers -----------------------------------------------------------------------------
  function bind(layer, popup, tip, permanent, cls) {
    // keep an opened popup clear of the title and the layer list at the top
    layer.bindPopup(popup, {
      maxWidth: 380,
      minWidth: 240,
      autoPanPaddingTopLeft: [20, 170],
      autoPanPaddingBottomRight: [20, 20],
    });
    if (tip !== undefined && tip !== null) {
      layer.bindTooltip(label(tip), {
        permanent: !!permanent,
        sticky: !permanent,
        direction: permanent ? "center" : "auto",
        className: cls || "",
      });
    }
  }

  var KINDS = {
    parcels: function () {
      return {
        style: function (f) {
          var s = f.properties.status;
          var c = ctx.colors.status[s] || "#999999";
          if (s === "unposted") {
            return {
              color: ctx.colors.gap.unmarked,
              weight: 3,
              opacity: 0.9,
              fillColor: c,
              fillOpacity: 0.35,
              className: "posting-parcel posting-parcel-unposted",
            };
          }
          return {
            color: c,
            weight: 2,
            opacity: 1,
            fillColor: c,
            fillOpacity: 0.3,
            className: "posting-parcel posting-parcel-" + (ctx.colors.status[s] ? s : "other"),
          };
        },
        onEachFeature: function (f, layer) {
          var p = f.properties;
          bind(
            layer,
            function () {
              return parcelPopup(p);
            },
            p.id,
            ctx.labels.parcels,
            "posting-label"
          );
          var key = String(p.id);
          if (!byId.has(key)) byId.set(key, []);
          byId.get(key).push(layer);
        },
      };
    },
    merged: function () {
      return {
        style: function () {
          return {
            color: ctx.colors.merged,
            weight: 3,
            dashArray: "8 6",
            fill: false,
            className: "posting-merged",
          };
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            return parcelPopup(f.properties);
          });
        },
      };
    },
    gaps: function () {
      return {
        style: function (f) {
          var s = f.properties.status;
          return {
            color: ctx.colors.gap[s] || ctx.colors.gap.over,
            weight: 8,
            opacity: 0.9,
            lineCap: "butt",
            dashArray: s === "uncertain" ? "12 8" : null,
            className: "posting-gap posting-gap-" + (ctx.colors.gap[s] ? s : "other"),
          };
        },
        onEachFeature: function (f, layer) {
          var g = f.properties;
          bind(
            layer,
            function () {
              return gapPopup(g);
            },
            ft(g.length_ft),
            ctx.labels.gaps,
            "posting-gap-label"
          );
        },
      };
    },
    corners: function () {
      return {
        pointToLayer: function (f, latlng) {
          var s = f.properties.status;
          return L.circleMarker(latlng, {
            radius: 8,
            color: ctx.colors.corner[s] || ctx.colors.corner.missing,
            weight: 3,
            fillColor: "#ffffff",
            fillOpacity: 0.85,
            className: "posting-corner posting-corner-" + (ctx.colors.corner[s] ? s : "other"),
          });
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            return cornerPopup(f.properties);
          }, "corner of " + f.properties.parcel);
        },
      };
    },
    markers: function () {
      return {
        pointToLayer: function (f, latlng) {
          var assigned = f.properties.assigned;
          return L.circleMarker(latlng, {
            radius: 4,
            color: "#ffffff",
            weight: 1.5,
            fillColor: assigned ? ctx.colors.marker.assigned : ctx.colors.marker.unassigned,
            fillOpacity: 1,
            className: "posting-marker posting-marker-" + (assigned ? "assigned" : "unassigned"),
          });
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            return markerPopup(f.properties);
          }, source([f.properties.source, f.properties.row]));
        },
      };
    },
    access: function () {
      return {
        pointToLayer: function (f, latlng) {
          return L.circleMarker(latlng, {
            radius: 7,
            color: ctx.colors.access,
            weight: 4,
            fillColor: "#ffffff",
            fillOpacity: 0.85,
            className: "posting-access",
          });
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            return simplePopup("Access point without a marker, parcel ", f.properties);
          });
        },
      };
    },
    planned: function () {
      return {
        pointToLayer: function (f, latlng) {
          return L.circleMarker(latlng, {
            radius: 6,
            color: ctx.colors.planned,
            weight: 3,
            fillColor: "#ffffff",
            fillOpacity: 1,
            className: "posting-planned",
          });
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            var box = el("div", "posting-popup");
            box.appendChild(el("h3", null, "Marker to add"));
            var t = el("table", "posting-facts");
            (f.properties.attrs || []).forEach(function (kv) {
              fact(t, kv[0], kv[1]);
            });
            box.appendChild(t);
            return box;
          });
        },
      };
    },
    water: function () {
      return {
        style: function () {
          return { color: ctx.colors.water, weight: 6, opacity: 0.9, className: "posting-water" };
        },
        onEachFeature: function (f, layer) {
          bind(layer, function () {
            return simplePopup("Boundary formed by water, parcel ", f.properties);
          }, ft(f.properties.length_ft));
        },
      };
    },
  };

  function layer(kind, data) {
    var g = L.geoJSON(data, KINDS[kind]());
    g.postingKind = kind;
    groups.push(g);
    return g;
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
    box.appendChild(el("h1", null, ctx.title));
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
    return box;
  }

  function searchBox() {
    var box = el("div", "posting-search leaflet-bar");
    var input = el("input");
    input.type = "search";
    input.placeholder = "Find parcel id";
    input.setAttribute("list", "posting-ids");
    input.setAttribute("aria-label", "Find a parcel by its id");
    var list = el("datalist");
    list.id = "posting-ids";
    ctx.ids.forEach(function (id) {
      var o = document.createElement("option");
      o.value = id;
      list.appendChild(o);
    });
    var msg = el("div", "posting-search-msg");
    box.appendChild(input);
    box.appendChild(list);
    box.appendChild(msg);
    function go() {
      msg.textContent = find(input.value);
    }
    input.addEventListener("change", go);
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter") go();
    });
    return box;
  }

  function find(text) {
    var id = String(text).trim();
    if (!id) return "";
    var hits = byId.get(id);
    if (!hits) {
      var lower = id.toLowerCase();
      byId.forEach(function (v, k) {
        if (!hits && k.toLowerCase() === lower) hits = v;
      });
    }
    if (!hits) {
      var off = ctx.off_map.parcels.filter(function (p) {
        return String(p.id) === id;
      });
      if (off.length) return "Parcel " + id + " is not on the map: " + (off[0].reason || off[0].status);
      return "No parcel " + id;
    }
    var bounds = L.latLngBounds([]);
    hits.forEach(function (h) {
      groups.forEach(function (g) {
        if (g.hasLayer(h) && !map.hasLayer(g)) map.addLayer(g);
      });
      bounds.extend(h.getBounds());
    });
    map.fitBounds(bounds, { maxZoom: 18, padding: [40, 40] });
    hits[0].openPopup();
    return hits.length > 1 ? hits.length + " parcels have this id" : "";
  }

  function legendBox() {
    // open on a laptop, folded on a phone; opened whole for printing
    var box = el("details", "posting-legend");
    box.open = window.innerWidth >= 700;
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
        ul.appendChild(el("li", null, "Marker " + source([s.source, s.row]) + ": " + s.reason));
      });
      d.appendChild(ul);
      box.appendChild(d);
    }
    var notes = [];
    ctx.not_checked.forEach(function (n) {
      notes.push("Not checked, " + (RULES[n.rule] || n.rule) + ": " + n.reason);
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

  // A parcel's id is written on it only where it fits; hover shows it anyway.
  function fitLabels() {
    if (!ctx.labels.parcels) return;
    groups.forEach(function (g) {
      if (g.postingKind !== "parcels" || !map.hasLayer(g)) return;
      g.eachLayer(function (l) {
        var t = l.getTooltip();
        var e = t && t.getElement();
        if (!e) return;
        var b = l.getBounds();
        var sw = map.latLngToContainerPoint(b.getSouthWest());
        var ne = map.latLngToContainerPoint(b.getNorthEast());
        var fits = ne.x - sw.x > e.offsetWidth + 4 && sw.y - ne.y > e.offsetHeight + 2;
        e.style.visibility = fits ? "" : "hidden";
      });
    });
  }

  function setup(m, context) {
    map = m;
    ctx = context;
    control("topleft", titleBox).addTo(map);
    L.control.zoom({ position: "topleft" }).addTo(map);
    control("topleft", searchBox).addTo(map);
    L.control.scale({ position: "bottomleft", imperial: true, metric: false, maxWidth: 200 }).addTo(map);
    control("bottomright", legendBox).addTo(map);
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll(".posting-legend, .posting-legend details").forEach(function (d) {
        d.open = true;
      });
      map.invalidateSize();
    });
    map.on("zoomend overlayadd", fitLabels);
    setTimeout(fitLabels, 0); // after the layers, which are added once setup has run
    window.postingMap = { map: map, layers: groups, find: find };
  }

  return { setup: setup, layer: layer, find: find };
})();
