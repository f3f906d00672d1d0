// What an app meets of consentd's wire types, which are defined once, in `ConsentdAPI`, for the
// SDK and the server alike: `import ConsentKit` brings these along (the region answer, its GPP
// sections, the US state codes and the debug override, the error body of a dead-lettered event,
// the proof's method and platform).
// The rest of `ConsentdAPI` (the event request, batches, records, subject states) is the sync
// client's and the server's business; files here that name it import `ConsentdAPI` themselves.
@_exported import struct ConsentdAPI.AppConfig
@_exported import struct ConsentdAPI.DebugRegion
@_exported import struct ConsentdAPI.GPPApplicability
@_exported import enum ConsentdAPI.USStateCode
@_exported import struct ConsentdAPI.ConsentdErrorBody
@_exported import struct ConsentdAPI.ConsentProof
// The store and the IAB keys (`KeyValueStore`, `UserDefaultsStore`, `IABKey`,
// `GDPRApplicability`), shared with `IABConsentReader`, which third-party SDKs link instead.
@_exported import IABStorage
