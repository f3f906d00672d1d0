export enum UspV1Field {
  VERSION = "Version",
  NOTICE = "Notice",
  OPT_OUT_SALE = "OptOutSale",
  LSPA_COVERED = "LspaCovered",
}

export const USPV1_CORE_SEGMENT_FIELD_NAMES = [
  UspV1Field.VERSION,
  UspV1Field.NOTICE,
  UspV1Field.OPT_OUT_SALE,
  UspV1Field.LSPA_COVERED,
];
