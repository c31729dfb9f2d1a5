local origin = std.extVar("origin_resource");
local vanity_ns_data = std.extVar("vanity_ns_data");
local domain = origin.name;

local fqdn(d) = 
  if std.endsWith(d, ".") then std.substr(d, 0, std.length(d) - 1)
  else if d == "@" then domain 
  else if d == domain then d 
  else if std.endsWith(d, "." + domain) then d 
  else d + "." + domain;

local strip(d) = if std.endsWith(d, ".") then std.substr(d, 0, std.length(d) - 1) else d;

local ensure_quotes(s) = 
  if std.length(s) >= 2 && std.startsWith(s, '"') && std.endsWith(s, '"') then s else '"' + s + '"';

local buildRec(r, type) = {
  type: type,
  name: fqdn(std.get(r, "original_name", r.name)),
  proxied: false,
  ttl: std.parseInt(std.toString(std.get(r, "ttl", "1"))),
};

local a_recs = [ buildRec(r, "A") + { content: r.address } for r in std.get(origin, "has_a_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local aaaa_recs = [ buildRec(r, "AAAA") + { content: r.address } for r in std.get(origin, "has_aaaa_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local cname_recs = [ buildRec(r, "CNAME") + { content: strip(r.canonical) } for r in std.get(origin, "has_cname_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local txt_recs = [ buildRec(r, "TXT") + { content: ensure_quotes(r.text) } for r in std.get(origin, "has_txt_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local mx_recs = [ buildRec(r, "MX") + { content: strip(r.mail_exchanger), priority: std.parseInt(std.toString(r.priority)) } for r in std.get(origin, "has_mx_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local srv_data(r) =
  local f = strip(fqdn(std.get(r, "original_name", r.name)));
  local dots = std.findSubstr(".", f);
  {
    target: strip(r.target),
    port: std.parseInt(std.toString(r.port)),
    priority: std.parseInt(std.toString(r.priority)),
    weight: std.parseInt(std.toString(r.weight)),
    service: std.substr(f, 0, dots[0]),
    proto: std.substr(f, dots[0] + 1, dots[1] - dots[0] - 1),
    name: std.substr(f, dots[1] + 1, std.length(f) - dots[1] - 1)
  };

local srv_recs = [ buildRec(r, "SRV") + { data: srv_data(r) } for r in std.get(origin, "has_srv_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local ptr_recs = [ buildRec(r, "PTR") + { content: strip(r.content) } for r in std.get(origin, "has_ptr_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local parse_caa(c) = 
  local spaces = std.findSubstr(" ", c);
  local val = std.substr(c, spaces[1] + 1, std.length(c) - spaces[1] - 1);
  local clean_val = if std.length(val) >= 2 && std.startsWith(val, '"') && std.endsWith(val, '"') then std.substr(val, 1, std.length(val) - 2) else val;
  {
    flags: std.parseInt(std.substr(c, 0, spaces[0])),
    tag: std.substr(c, spaces[0] + 1, spaces[1] - spaces[0] - 1),
    value: clean_val
  };

local caa_recs = [ buildRec(r, "CAA") + { data: parse_caa(r.content) } for r in std.get(origin, "has_caa_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local ns_recs = [ buildRec(r, "NS") + { content: strip(r.content) } for r in std.get(origin, "has_apex_ns_record", []) + std.get(origin, "has_subdomain_ns_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local parse_sshfp(c) = 
  local spaces = std.findSubstr(" ", c);
  {
    algorithm: std.parseInt(std.substr(c, 0, spaces[0])),
    type: std.parseInt(std.substr(c, spaces[0] + 1, spaces[1] - spaces[0] - 1)),
    fingerprint: std.substr(c, spaces[1] + 1, std.length(c) - spaces[1] - 1)
  };

local sshfp_recs = [ buildRec(r, "SSHFP") + { data: parse_sshfp(r.content) } for r in std.get(origin, "has_sshfp_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local cert_recs = [ buildRec(r, "CERT") + { content: strip(r.content) } for r in std.get(origin, "has_cert_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local dnskey_recs = [ buildRec(r, "DNSKEY") + { content: strip(r.content) } for r in std.get(origin, "has_dnskey_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local ds_recs = [ buildRec(r, "DS") + { content: strip(r.content) } for r in std.get(origin, "has_ds_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local https_recs = [ buildRec(r, "HTTPS") + { content: strip(r.content) } for r in std.get(origin, "has_https_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local loc_recs = [ buildRec(r, "LOC") + { content: strip(r.content) } for r in std.get(origin, "has_loc_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local naptr_recs = [ buildRec(r, "NAPTR") + { content: strip(r.content) } for r in std.get(origin, "has_naptr_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local smimea_recs = [ buildRec(r, "SMIMEA") + { content: strip(r.content) } for r in std.get(origin, "has_smimea_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local svcb_recs = [ buildRec(r, "SVCB") + { content: strip(r.content) } for r in std.get(origin, "has_svcb_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local tlsa_recs = [ buildRec(r, "TLSA") + { content: strip(r.content) } for r in std.get(origin, "has_tlsa_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local uri_recs = [ buildRec(r, "URI") + { content: strip(r.content) } for r in std.get(origin, "has_uri_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];

local all_records = a_recs + aaaa_recs + cname_recs + txt_recs + mx_recs + srv_recs + ptr_recs + caa_recs + ns_recs + sshfp_recs + cert_recs + dnskey_recs + ds_recs + https_recs + loc_recs + naptr_recs + smimea_recs + svcb_recs + tlsa_recs + uri_recs;

local raw_vns = std.get(origin, "vanity_name_server", "");
local all_vns = if std.type(raw_vns) == "string" then (if std.length(raw_vns) > 0 then std.split(raw_vns, ",") else []) else raw_vns;
local cf_vns = [
  std.stripChars(ns, " ") for ns in all_vns 
  if std.stripChars(ns, " ") != "" && std.objectHas(vanity_ns_data, std.stripChars(ns, " ")) && std.get(vanity_ns_data[std.stripChars(ns, " ")], "provider", "") == "cloudflare"
];

local output = {
  records: all_records,
  dns_topology: std.get(origin, "dns_topology", "unknown"),
  zones: [
    {
      vanity_name_servers: cf_vns,
      zone: domain
    }
  ]
};

std.manifestJsonEx(output, "  ") + "\n"
