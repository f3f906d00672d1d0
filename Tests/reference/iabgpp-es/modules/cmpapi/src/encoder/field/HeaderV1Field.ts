export enum HeaderV1Field {
  ID = "Id",
  VERSION = "Version",
  SECTION_IDS = "SectionIds",
}

export const HEADER_CORE_SEGMENT_FIELD_NAMES = [HeaderV1Field.ID, HeaderV1Field.VERSION, HeaderV1Field.SECTION_IDS];
