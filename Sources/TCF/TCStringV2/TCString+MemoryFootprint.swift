extension TCString {
    /// The bytes the value occupies: its inline size and every heap allocation it holds (the
    /// id sets' words or runs as allocated, the restrictions' array by its capacity, long
    /// strings). What the memory bound of decoding is stated in: a decoded string takes a
    /// bounded multiple of the string's length (see ``IDSet/Runs``).
    var memoryFootprint: Int {
        var sets = [specialFeatureOptIns, purposesConsent, purposesLITransparency, vendorConsents, vendorLegitimateInterests]
        if let disclosedVendors { sets.append(disclosedVendors) }
        if let allowedVendors { sets.append(allowedVendors) }
        if let publisherTC {
            sets += [
                publisherTC.pubPurposesConsent, publisherTC.pubPurposesLITransparency,
                publisherTC.customPurposesConsent, publisherTC.customPurposesLITransparency,
            ]
        }
        var bytes = MemoryLayout<TCString>.size + sets.reduce(0) { $0 + $1.heapBytes }
        if publisherRestrictions.capacity > 0 {
            // An array's buffer: the object header, count and capacity, then the elements.
            bytes += 4 * MemoryLayout<Int>.size + publisherRestrictions.capacity * MemoryLayout<PublisherRestriction>.stride
        }
        bytes += publisherRestrictions.reduce(0) { $0 + $1.vendorIds.heapBytes }
        for text in [consentLanguage, publisherCC] where text.utf8.count > 15 {
            // Up to 15 UTF-8 bytes live inline; longer text has a buffer of its own.
            bytes += 4 * MemoryLayout<Int>.size + text.utf8.count
        }
        return bytes
    }
}
