import TCF

/// Which legitimate interests a notice establishes, by the TCF 2.3 consent string format
/// ("Vendor Legitimate Interest Section"): a vendor's bit is 1 when the CMP established
/// transparency for the vendor's legitimate interest for one or more purposes, special purposes
/// included, and 0 once the user objects. A vendor registered for special purposes only is
/// always 1 once shown (special purposes are disclosed, never chosen).
///
/// The one rule behind "Accept all" (``ConsentState/agreeToAll(scope:at:)``), "Reject all"
/// (``ConsentState/disagreeToAll(scope:at:)``), the notice's document (each vendor's objectable
/// purposes) and the check of its result.
public enum LegitimateInterest {
    /// The purposes `vendor` processes on legitimate interest under the publisher's
    /// `restrictions`, which the user may object to: the purposes it declares on legitimate
    /// interest (a flexible purpose's default basis), plus the flexible purposes a restriction
    /// requires legitimate interest for, minus those a restriction disallows or, when flexible,
    /// requires consent for; never purposes 1 and 3-6 (TCF 2.2: consent only).
    public static func purposes(of vendor: borrowing Vendor, restrictions: [PublisherRestriction]) -> IDSet {
        var purposes = vendor.legIntPurposes
        for restriction in restrictions where restriction.vendorIds.contains(vendor.id) {
            let id = restriction.purposeId
            switch restriction.restrictionType {
            case .notAllowed:
                purposes = purposes.removing(id)
            case .requireConsent where vendor.flexiblePurposes.contains(id):
                purposes = purposes.removing(id)
            case .requireLegitimateInterest where vendor.flexiblePurposes.contains(id):
                purposes = purposes.inserting(id)
            default:
                break
            }
        }
        return purposes.subtracting(TCString.consentOnlyPurposes)
    }

    /// Whether showing `vendor` establishes its legitimate interest (its bit is 1 until the user
    /// objects): it has a purpose on legitimate interest (``purposes(of:restrictions:)``) or a
    /// special purpose.
    public static func isEstablished(for vendor: borrowing Vendor, restrictions: [PublisherRestriction]) -> Bool {
        !vendor.specialPurposes.isEmpty || !purposes(of: vendor, restrictions: restrictions).isEmpty
    }

    /// The vendors of `scope` whose legitimate interest showing them establishes (`established`),
    /// the purposes on legitimate interest among them (`purposes`), and those the user can object
    /// to (`objectable`: the vendors with such a purpose). A vendor established but not
    /// objectable (special purposes only, or special purposes and consent) keeps its bit whatever
    /// the user chooses.
    public static func of(_ scope: ConsentScope) -> (established: IDSet, objectable: IDSet, purposes: IDSet) {
        var established: [Int] = [], objectable: [Int] = []
        var purposes = IDSet()
        // By position in the list, not through an array of vendor copies.
        let vendors = scope.vendorList.vendors.values
        for id in scope.vendorIds {
            guard let index = scope.vendorList.vendors.index(forKey: id) else { continue }
            let interests = Self.purposes(of: vendors[index], restrictions: scope.publisherRestrictions)
            if !interests.isEmpty {
                objectable.append(id)
                purposes = purposes.union(interests)
            }
            if !interests.isEmpty || !vendors[index].specialPurposes.isEmpty { established.append(id) }
        }
        return (IDSet(validIds: established), IDSet(validIds: objectable),
                purposes.intersection(IDSet(validIds: scope.vendorList.purposes.keys)))
    }
}
