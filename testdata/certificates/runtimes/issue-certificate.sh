#!/bin/sh
# Issues the certificate of one host (the origin of the action). This worked example talks to no
# real CA: it checks what a real ACME client would need (CSR, account, EAB key, order), derives a
# serial from the CSR and writes the result back through the contracts (spec §3 rule 7: success
# sets the certificate active and the request valid; failure sets invalid and exits non-zero).
set -eu
dry_run="${1:-false}"
host="$GRAPHSVC_ORIGIN_NAME"
api="${GRAPHSVC_API%/}"

call() { # contract, JSON body
  curl -fsS -X POST -H 'content-type: application/json' -d "$2" "$api/api/contracts/$1" >/dev/null
  echo "wrote back: $1"
}

echo "order $KEY_TYPE certificate for $FQDN (zone $ZONE, dns-01 at $DNS_PROVIDER) from $ACME_DIRECTORY"
echo "account: $(tr -d ' \n' < files/acme-account.json | sed 's/.*"kid":"\([^"]*\)".*/\1/')"
echo "order: $(tr -d '\n' < files/order.json)"
[ -n "$ACME_EAB_HMAC_KEY" ] || { echo "no EAB key" >&2; exit 1; }
echo "external account binding key: ${#ACME_EAB_HMAC_KEY} characters"
if [ "$dry_run" = "true" ]; then
  echo "dry run: nothing ordered, nothing written back"
  exit 0
fi

call StartIssuance "{\"host\":\"$host\"}"
case "$CSR" in
  "-----BEGIN CERTIFICATE REQUEST-----"*"-----END CERTIFICATE REQUEST-----") ;;
  *)
    call FailCertificate "{\"host\":\"$host\",\"reason\":\"the CSR is not a PEM certificate request\"}"
    echo "the CSR of $host is not a PEM certificate request" >&2
    exit 1
    ;;
esac
serial=$(printf '%s' "$CSR" | sha256sum | cut -c1-16)
not_after=$(date -u -d '+90 days' +%Y-%m-%dT%H:%M:%SZ)
call CompleteCertificate "{\"host\":\"$host\",\"serial\":\"$serial\",\"not_after\":\"$not_after\"}"
echo "issued $FQDN serial $serial valid until $not_after"
