"""Decodes consent strings with the PyPI reference decoder `iab-tcf` for differential tests.

Reads one string per line on standard input and prints one JSON object per line: the fields
both decoders share, or {"error": "..."}. Test tooling only; the product never uses it.
"""
import json
import sys

import iab_tcf


def ids(flags):
    return sorted(i for i, on in (flags or {}).items() if on)


def dump(text):
    c = iab_tcf.decode(text)
    out = {
        "version": c.version,
        "created": int(c.created.timestamp()),
        "lastUpdated": int(c.last_updated.timestamp()),
        "cmpId": c.cmp_id,
        "cmpVersion": c.cmp_version,
        "consentScreen": c.consent_screen,
        "consentLanguage": c.consent_language.decode().upper(),
        "vendorListVersion": c.vendor_list_version,
    }
    if c.version == 2:
        out.update({
            "policyVersion": c.tcf_policy_version,
            "isServiceSpecific": bool(c.is_service_specific),
            "purposeConsents": ids(c.purposes_consent),
            "purposeLegitimateInterests": ids(c.purposes_legitimate_interests),
            "specialFeatureOptins": ids(c.special_features_optin),
            "purposeOneTreatment": bool(c.purpose_one_treatment),
            "publisherCountryCode": c.publisher_cc.decode().upper(),
            "vendorConsents": ids(c.consented_vendors),
            "vendorLegitimateInterests": ids(c.interests_vendors),
        })
    else:
        out["purposesAllowed"] = ids(c.purposes_allowed)
        out["maxVendorId"] = c.max_vendor_id
        out["vendorConsents"] = [i for i in range(1, c.max_vendor_id + 1) if c.is_vendor_allowed(i)]
    return out


for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    try:
        print(json.dumps(dump(line)))
    except Exception as error:  # the reference decoder's own failures are data here
        print(json.dumps({"error": repr(error)}))
