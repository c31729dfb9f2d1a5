local origin = std.extVar("origin_resource");
local vanity_ns_data = std.extVar("vanity_ns_data");
local domain = origin.name;

local fqdn(d) = 
  if std.endsWith(d, ".") then d 
  else if d == "@" then domain 
  else if d == domain then d 
  else if std.endsWith(d, "." + domain) then d 
  else d + "." + domain;

local strip(d) = if std.endsWith(d, ".") then std.substr(d, 0, std.length(d) - 1) else d;

local strip_quotes(s) = 
  if std.length(s) >= 2 && std.startsWith(s, '"') && std.endsWith(s, '"') then std.substr(s, 1, std.length(s) - 2) else s;

local buildRec(r, type) = {
  name: strip(fqdn(std.get(r, "original_name", r.name))),
  type: type,
  ttl: std.parseInt(std.toString(std.get(r, "ttl", "3600"))),
};

local a_recs = [ buildRec(r, "A") + { content: r.address } for r in std.get(origin, "has_a_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local aaaa_recs = [ buildRec(r, "AAAA") + { content: r.address } for r in std.get(origin, "has_aaaa_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local cname_recs = [ buildRec(r, "CNAME") + { content: strip(r.canonical) } for r in std.get(origin, "has_cname_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
local txt_recs = [ buildRec(r, "TXT") + { content: strip_quotes(r.text) } for r in std.get(origin, "has_txt_record", []) if std.toString(std.get(r, "disabled", false)) != "true" ];
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
  {
    flags: std.parseInt(std.substr(c, 0, spaces[0])),
    tag: std.substr(c, spaces[0] + 1, spaces[1] - spaces[0] - 1),
    value: strip_quotes(std.substr(c, spaces[1] + 1, std.length(c) - spaces[1] - 1))
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
local records_json = std.manifestJsonEx(all_records, "  ");

local raw_vns = std.get(origin, "vanity_name_server", "");
local all_vns = if std.type(raw_vns) == "string" then (if std.length(raw_vns) > 0 then std.split(raw_vns, ",") else []) else raw_vns;
local cf_vns = [
  std.stripChars(ns, " ") for ns in all_vns 
  if std.stripChars(ns, " ") != "" && std.objectHas(vanity_ns_data, std.stripChars(ns, " ")) && std.get(vanity_ns_data[std.stripChars(ns, " ")], "provider", "") == "cloudflare"
];

local plan = "enterprise";
local multisigner = std.get(origin, "multisigner", "False");
local dns_topology = std.get(origin, "dns_topology", "unknown");

local py_template = |||
  import os
  import sys
  import requests
  import json
  import re
  
  # --- Configuration ---
  API_TOKEN = os.getenv("CLOUDFLARE_API_TOKEN")
  ACCOUNT_ID = os.getenv("CLOUDFLARE_ACCOUNT_ID")
  if not API_TOKEN or not ACCOUNT_ID:
      sys.exit("Error: CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID environment variables must be set.")
  ZONE_NAME = "%s"
  PLAN = "%s"
  MULTISIGNER = "%s".lower() == "true"
  DNS_TOPOLOGY = "%s"
  VANITY_NAME_SERVERS = %s
  
  def normalize_record(r):
      if r.get('type') == 'MX':
          return f"{r.get('priority')} {r.get('content', '').rstrip('.')}"
      elif r.get('type') == 'SRV':
          d = r.get('data', {})
          if d:
              return f"{d.get('priority')} {d.get('weight')} {d.get('port')} {d.get('target', '').rstrip('.')}"
          return r.get('content', '')
      elif r.get('type') == 'CAA':
          d = r.get('data', {})
          if d:
              val = d.get('value', '')
              if val.startswith('"') and val.endswith('"'):
                  val = val[1:-1]
              return f"{d.get('flags')} {d.get('tag')} {val}"
          c = r.get('content', '')
          parts = c.split(' ', 2)
          if len(parts) == 3:
              val = parts[2]
              if val.startswith('"') and val.endswith('"'):
                  val = val[1:-1]
              return f"{parts[0]} {parts[1]} {val}"
          return c
      elif r.get('type') == 'SSHFP':
          d = r.get('data', {})
          if d:
              return f"{d.get('algorithm')} {d.get('type')} {d.get('fingerprint')}"
          return r.get('content', '')
      elif r.get('type') == 'TXT':
          c = r.get('content', '')
          if c.startswith('"') and c.endswith('"'):
              c = c[1:-1]
          return c
      else:
          return r.get('content', '').rstrip('.')
  
  def get_zone_info(zone_name, account_id, headers):
      url = f"https://api.cloudflare.com/client/v4/zones?name={zone_name}&account.id={account_id}"
      response = requests.get(url, headers=headers).json()
      if not response.get('success') or not response.get('result'):
          return None
      return response['result'][0]
  
  def get_existing_records(zone_id, headers):
      records = []
      url = f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dns_records"
      page = 1
      while True:
          response = requests.get(url, headers=headers, params={'per_page': 100, 'page': page}).json()
          if not response.get('success'):
              raise Exception(f"Failed to fetch records: {response.get('errors')}")
          records.extend(response['result'])
          if response['result_info']['page'] >= response['result_info']['total_pages']:
              break
          page += 1
      return records
  
  def sync_records(zone_name, account_id, token, defined_records):
      headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
      
      print("1. Getting zone info...")
      zone_info = get_zone_info(zone_name, account_id, headers)
      zone_id = zone_info['id'] if zone_info else None
      
      existing_records = []
      if zone_id:
          print(f"Zone ID: {zone_id}")
          print("2. Fetching existing records...")
          existing_records = get_existing_records(zone_id, headers)
      else:
          print(f"Zone {zone_name} not found. Will be created.")
          print("2. Skipping record fetch for new zone.")
      
      print("3. Comparing records...")
      existing_map = {(r['name'], r['type'], normalize_record(r).lower()): r for r in existing_records}
      defined_map = {(r['name'], r['type'], normalize_record(r).lower()): r for r in defined_records}
      
      to_add, to_update, to_remove = [], [], []
      
      for key, d_rec in defined_map.items():
          if key not in existing_map:
              to_add.append(d_rec)
          else:
              e_rec = existing_map[key]
              if e_rec['ttl'] != d_rec['ttl']:
                  to_update.append((e_rec['id'], d_rec))
                  
      for key, e_rec in existing_map.items():
          if key not in defined_map and e_rec['type'] not in ['SOA', 'NS']:
              to_remove.append(e_rec)
  
      print("\n4. Diff:")
      vns_raw = VANITY_NAME_SERVERS.split(",") if isinstance(VANITY_NAME_SERVERS, str) else VANITY_NAME_SERVERS
      vns_list = [ns.strip() for ns in vns_raw if ns.strip() and ns.strip().lower() != "null"]
      update_plan = bool(PLAN)
      update_vns = bool(vns_list)
  
      if zone_info:
          current_plan = zone_info.get('plan', {}).get('legacy_id') or zone_info.get('plan', {}).get('id')
          if PLAN and current_plan == PLAN:
              update_plan = False
              
          current_vns = zone_info.get('vanity_name_servers') or []
          
          # Fetch custom_ns to see if it's Account Custom NS
          custom_ns_resp = requests.get(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/custom_ns", headers=headers).json()
          ns_data = custom_ns_resp.get('result') or custom_ns_resp if custom_ns_resp.get('success') else {}
          
          if ns_data.get('enabled'):
              current_vns = [f"Account Custom NS (Set {ns_data.get('set', ns_data.get('ns_set'))})"]
          
          if vns_list and set(current_vns) == set(vns_list):
              update_vns = False
  
      settings_patch = MULTISIGNER or update_vns or update_plan
    
      if not zone_id:
          print(f"+ Create Zone: {zone_name} (Enterprise Plan)")
      if zone_id and not to_add and not to_update and not to_remove and not settings_patch:
          print(" No changes required.")
          return

      if zone_id:
          if update_plan:
              print(f"~ Update: Plan to {PLAN}")
          if MULTISIGNER:
              print("~ Update: Multi-Signer DNSSEC to active")
          if update_vns:
              print(f"~ Update: Vanity Name Servers to {vns_list}")

      for r in to_remove:
          print(f"- Remove: {r['name']} IN {r['type']} {normalize_record(r)}")
      for r in to_add:
          print(f"+ Add: {r['name']} IN {r['type']} {normalize_record(r)}")
      for eid, r in to_update:
          print(f"~ Update: {r['name']} IN {r['type']} {normalize_record(r)}")
          
      confirm = input("\nDo you want to apply these changes? (y/N): ")
      if confirm.lower() != 'y':
          print("Aborted.")
          return

      print("\n5. Applying changes...")
      if not zone_id:
          create_url = "https://api.cloudflare.com/client/v4/zones"
          payload = {
              "name": zone_name,
              "account": {"id": account_id}
          }
          create_resp = requests.post(create_url, headers=headers, json=payload).json()
          if not create_resp.get('success'):
              raise Exception(f"Failed to create zone: {create_resp.get('errors')}")
          zone_id = create_resp['result']['id']
          print(f"Created zone {zone_name} with ID {zone_id}")

      print("6. Configuring Zone Settings...")
      if update_plan:
          requests.patch(f"https://api.cloudflare.com/client/v4/zones/{zone_id}", headers=headers, json={"plan": {"id": PLAN}})
          print(f"Set Zone Plan to {PLAN}")
          
      if update_vns:
          vns_str = ", ".join(vns_list)
          if "Account Custom NS" in vns_str:
              m = re.search(r"Set (\d+)", vns_str)
              if m:
                  requests.put(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/custom_ns", headers=headers, json={"enabled": True, "ns_set": int(m.group(1))})
                  print(f"Set Account Custom NS to Set {m.group(1)}")
          else:
              requests.put(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/custom_ns", headers=headers, json={"enabled": False})
              new_vns = [] if vns_str.lower() == 'none' or not vns_str else vns_list
              requests.patch(f"https://api.cloudflare.com/client/v4/zones/{zone_id}", headers=headers, json={"vanity_name_servers": new_vns})
              print(f"Set Vanity Name Servers to {new_vns}")
              
      if MULTISIGNER:
          requests.patch(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dnssec", headers=headers, json={"status": "active"})
          requests.patch(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dnssec", headers=headers, json={"dnssec_multi_signer": True})
          print("Enabled Multi-Signer DNSSEC")
          
      for r in to_remove:
          requests.delete(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dns_records/{r['id']}", headers=headers)
          print(f"Removed {r['name']}")
      for r in to_add:
          requests.post(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dns_records", headers=headers, json=r)
          print(f"Added {r['name']}")
      for eid, r in to_update:
          requests.put(f"https://api.cloudflare.com/client/v4/zones/{zone_id}/dns_records/{eid}", headers=headers, json=r)
          print(f"Updated {r['name']}")
      print("Done!")
  
  if __name__ == "__main__":
      defined_records = json.loads("""%s""")
      sync_records(ZONE_NAME, ACCOUNT_ID, API_TOKEN, defined_records)
|||;

std.format(py_template, [domain, plan, multisigner, dns_topology, std.manifestJsonEx(cf_vns, ""), records_json])
