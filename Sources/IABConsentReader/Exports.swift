// The store the reader reads and the IAB keys (`KeyValueStore`, `UserDefaultsStore`, `IABKey`,
// `GDPRApplicability`): `import IABConsentReader` brings them along, without the CMP.
@_exported import IABStorage
