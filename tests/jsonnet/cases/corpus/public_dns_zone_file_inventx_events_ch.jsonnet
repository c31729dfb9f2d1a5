// Define zone variables
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
  else if std.endsWith(f, "." + domain + ".") then std.substr(f, 0, std.length(f) - std.length("." + domain + "."))
  else f;

local rel_name(d) =
  if d == "@" || d == "" then "@"
  else to_relative(fqdn(d));

local rel_value(d) = to_relative(absolute(d));

local formatRecord(name, ttl, type, value) =
  local safeTtl = if ttl == null || std.toString(ttl) == "" || std.toString(ttl) == "1" || std.toString(ttl) == "3600" then "" else std.toString(ttl);
  std.format("%-30s %-7s IN %-7s %s", [rel_name(name), safeTtl, type, value]);

local a_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "A", r.address) for r in std.get(origin, "has_a_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local aaaa_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "AAAA", r.address) for r in std.get(origin, "has_aaaa_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local cname_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "CNAME", rel_value(r.canonical)) for r in std.get(origin, "has_cname_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local txt_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "TXT", r.text) for r in std.get(origin, "has_txt_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local mx_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "MX", std.toString(r.priority) + " " + rel_value(r.mail_exchanger)) for r in std.get(origin, "has_mx_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local srv_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "SRV", std.toString(r.priority) + " " + std.toString(r.weight) + " " + std.toString(r.port) + " " + rel_value(r.target)) for r in std.get(origin, "has_srv_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local ptr_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "PTR", rel_value(r.content)) for r in std.get(origin, "has_ptr_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local caa_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "CAA", r.content) for r in std.get(origin, "has_caa_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local ns_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "NS", rel_value(r.content)) for r in std.get(origin, "has_apex_ns_record", []) + std.get(origin, "has_subdomain_ns_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local sshfp_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "SSHFP", r.content) for r in std.get(origin, "has_sshfp_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];

local cert_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "CERT", r.content) for r in std.get(origin, "has_cert_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local dnskey_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "DNSKEY", r.content) for r in std.get(origin, "has_dnskey_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local ds_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "DS", r.content) for r in std.get(origin, "has_ds_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local https_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "HTTPS", r.content) for r in std.get(origin, "has_https_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local loc_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "LOC", r.content) for r in std.get(origin, "has_loc_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local naptr_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "NAPTR", r.content) for r in std.get(origin, "has_naptr_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local smimea_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "SMIMEA", r.content) for r in std.get(origin, "has_smimea_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local svcb_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "SVCB", r.content) for r in std.get(origin, "has_svcb_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local tlsa_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "TLSA", r.content) for r in std.get(origin, "has_tlsa_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];
local uri_recs = [formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), "URI", r.content) for r in std.get(origin, "has_uri_record", []) if std.toString(std.get(r, "disabled", false)) != "true"];

local records = a_recs + aaaa_recs + cname_recs + txt_recs + mx_recs + srv_recs + ptr_recs + caa_recs + ns_recs + sshfp_recs + cert_recs + dnskey_recs + ds_recs + https_recs + loc_recs + naptr_recs + smimea_recs + svcb_recs + tlsa_recs + uri_recs;

local raw_vns = std.get(origin, "vanity_name_server", []);
local vanity_ns = if std.type(raw_vns) == "string" then (if std.length(raw_vns) > 0 then std.split(raw_vns, ",") else []) else raw_vns;
local clean_vanity_ns = [std.stripChars(ns, " ") for ns in vanity_ns if std.stripChars(ns, " ") != ""];

local generated_ns_recs = if std.length(clean_vanity_ns) > 0 then
  [std.format("@ IN NS %s.", [absolute(ns)]) for ns in clean_vanity_ns]
else
  ["@ IN NS ns3.ixcloud.ch.", "@ IN NS ns4.ixcloud.ch."];

local soa_primary = if std.length(clean_vanity_ns) > 0 then absolute(clean_vanity_ns[0]) else "ns3.ixcloud.ch.";
local soa_record = std.format("@ IN SOA %s hostmaster.%s ( 2026030401 7200 3600 1209600 3600 )", [soa_primary, absolute(domain)]);

std.join("\n", [
  "; Zone file for " + domain,
  "; $ORIGIN " + absolute(domain),
  "$TTL 3600",
  soa_record,
] + generated_ns_recs + records) + "\n"
