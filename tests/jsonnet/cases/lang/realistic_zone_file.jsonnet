local origin = std.extVar("origin_resource");
local domain = origin.name;
local absolute(d) = if std.endsWith(d, ".") then d else d + ".";
local fqdn(d) =
  if std.endsWith(d, ".") then d
  else if d == "@" || d == "" then domain + "."
  else if d == domain then d + "."
  else if std.endsWith(d, "." + domain) then d + "."
  else d + "." + domain + ".";
local to_relative(f) =
  if f == domain + "." then "@"
  else if std.endsWith(f, "." + domain + ".")
  then std.substr(f, 0, std.length(f) - std.length("." + domain + "."))
  else f;
local rel_name(d) = if d == "@" || d == "" then "@" else to_relative(fqdn(d));
local rel_value(d) = to_relative(absolute(d));
local formatRecord(name, ttl, type, value) =
  local t = std.toString(ttl);
  local safeTtl = if ttl == null || t == "" || t == "1" || t == "3600" then "" else t;
  std.format("%-30s %-7s IN %-7s %s", [rel_name(name), safeTtl, type, value]);
local enabled(r) = std.toString(std.get(r, "disabled", false)) != "true";
local recs(kind, type, value) = [
  formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), type, value(r))
  for r in std.get(origin, kind, [])
  if enabled(r)
];
local records =
  recs("has_a_record", "A", function(r) r.address)
  + recs("has_aaaa_record", "AAAA", function(r) r.address)
  + recs("has_cname_record", "CNAME", function(r) rel_value(r.canonical))
  + recs("has_txt_record", "TXT", function(r) r.text)
  + recs("has_mx_record", "MX",
         function(r) std.toString(r.priority) + " " + rel_value(r.mail_exchanger))
  + recs("has_srv_record", "SRV", function(r) std.join(" ", [
      std.toString(r.priority), std.toString(r.weight), std.toString(r.port), rel_value(r.target),
    ]));
local raw_vns = std.get(origin, "vanity_name_server", []);
local vanity_ns =
  if std.type(raw_vns) == "string"
  then (if std.length(raw_vns) > 0 then std.split(raw_vns, ",") else [])
  else raw_vns;
local clean_ns = [std.stripChars(ns, " ") for ns in vanity_ns if std.stripChars(ns, " ") != ""];
local ns_recs =
  if std.length(clean_ns) > 0 then [std.format("@ IN NS %s", [absolute(ns)]) for ns in clean_ns]
  else ["@ IN NS ns3.example.ch.", "@ IN NS ns4.example.ch."];
local soa_primary = if std.length(clean_ns) > 0 then absolute(clean_ns[0]) else "ns3.example.ch.";
local soa = std.format("@ IN SOA %s hostmaster.%s ( 2026030401 7200 3600 1209600 3600 )",
                       [soa_primary, absolute(domain)]);
std.join("\n", ["; Zone file for " + domain, "$TTL 3600", soa] + ns_recs + records) + "\n"
