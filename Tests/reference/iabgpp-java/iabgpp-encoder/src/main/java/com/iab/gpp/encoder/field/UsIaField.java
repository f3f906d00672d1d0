package com.iab.gpp.encoder.field;

import java.util.Arrays;
import java.util.List;

public class UsIaField {

  public static String VERSION = "Version";
  public static String PROCESSING_NOTICE = "ProcessingNotice";
  public static String SALE_OPT_OUT_NOTICE = "SaleOptOutNotice";
  public static String TARGETED_ADVERTISING_OPT_OUT_NOTICE = "TargetedAdvertisingOptOutNotice";
  public static String SENSITIVE_DATA_OPT_OUT_NOTICE = "SensitiveDataOptOutNotice";
  public static String SALE_OPT_OUT = "SaleOptOut";
  public static String TARGETED_ADVERTISING_OPT_OUT = "TargetedAdvertisingOptOut";
  public static String SENSITIVE_DATA_PROCESSING = "SensitiveDataProcessing";
  public static String KNOWN_CHILD_SENSITIVE_DATA_CONSENTS = "KnownChildSensitiveDataConsents";
  public static String MSPA_COVERED_TRANSACTION = "MspaCoveredTransaction";
  public static String MSPA_OPT_OUT_OPTION_MODE = "MspaOptOutOptionMode";
  public static String MSPA_SERVICE_PROVIDER_MODE = "MspaServiceProviderMode";

  public static String GPC_SEGMENT_TYPE = "GpcSegmentType";
  public static String GPC_SEGMENT_INCLUDED = "GpcSegmentIncluded";
  public static String GPC = "Gpc";
  
  //@formatter:off
  public static List<String> USIA_CORE_SEGMENT_FIELD_NAMES = Arrays.asList(new String[] {
      UsIaField.VERSION,
      UsIaField.PROCESSING_NOTICE,
      UsIaField.SALE_OPT_OUT_NOTICE,
      UsIaField.TARGETED_ADVERTISING_OPT_OUT_NOTICE,
      UsIaField.SENSITIVE_DATA_OPT_OUT_NOTICE,
      UsIaField.SALE_OPT_OUT,
      UsIaField.TARGETED_ADVERTISING_OPT_OUT,
      UsIaField.SENSITIVE_DATA_PROCESSING,
      UsIaField.KNOWN_CHILD_SENSITIVE_DATA_CONSENTS,
      UsIaField.MSPA_COVERED_TRANSACTION,
      UsIaField.MSPA_OPT_OUT_OPTION_MODE,
      UsIaField.MSPA_SERVICE_PROVIDER_MODE
  });
  //@formatter:on
  
  //@formatter:off
  public static List<String> USIA_GPC_SEGMENT_FIELD_NAMES = Arrays.asList(new String[] {
      UsIaField.GPC_SEGMENT_TYPE,
      UsIaField.GPC
  });
  //@formatter:on
}
