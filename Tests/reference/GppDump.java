import com.iab.gpp.encoder.GppModel;
import com.iab.gpp.encoder.datatype.RangeEntry;
import com.iab.gpp.encoder.section.EncodableSection;
import com.iab.gpp.encoder.section.HeaderV1;
import com.iab.gpp.encoder.section.Sections;
import com.iab.gpp.encoder.section.TcfEuV2;
import com.iab.gpp.encoder.segment.EncodableSegment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decodes GPP strings with iabgpp-java (vendored under iabgpp-java/) for ConsentKit's differential test.
 *
 * <p>Reads one GPP string per line on standard input and prints one JSON object per line in the GPP JSON form of
 * ConsentKit (Fixtures/gpp/README.md): the sections in string order keyed by their API prefix, the fields under the
 * names of the IAB section specs, ids as sorted arrays, datetimes as ISO 8601 UTC with milliseconds; a section id
 * iabgpp-java does not know is kept raw under its decimal id. A string iabgpp-java cannot decode prints
 * {"error": "..."} with its exception. Test tooling only; the product never uses it.
 */
public final class GppDump {

  /** The fields iabgpp-java names otherwise than the section specs, by section: read from spec-names.txt. */
  private static final Map<String, Map<String, String>> SPEC_NAMES = new HashMap<>();

  /** The US "2 bits per entry" lists (N-Bitfield): printed in the string's order, not as ids. */
  private static final Set<String> N_BITFIELDS = Set.of("SensitiveDataProcessing", "KnownChildSensitiveDataConsents");

  private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");

  /** Usage: java GppDump SPEC_NAMES_FILE (gpp-reference passes Tests/reference/spec-names.txt). */
  public static void main(String[] args) throws Exception {
    for (String line : Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8)) {
      String[] words = line.strip().split("\\s+");
      if (words.length == 3 && !words[0].startsWith("#")) {
        SPEC_NAMES.computeIfAbsent(words[0], section -> new HashMap<>()).put(words[1], words[2]);
      }
    }
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    String line;
    while ((line = in.readLine()) != null) {
      String text = line.strip();
      if (text.isEmpty()) {
        continue;
      }
      String json;
      try {
        json = dump(text);
      } catch (Throwable error) { // iabgpp-java's own failures (exceptions or errors) are data here
        json = "{\"error\":" + quote(describe(error)) + "}";
      }
      out.println(json);
    }
    out.flush();
  }

  /** The whole string as one JSON object; throws whatever iabgpp-java throws. */
  static String dump(String text) throws Exception {
    GppModel model = new GppModel(text);
    EncodableSection first = model.getSection(HeaderV1.NAME);
    StringBuilder json = new StringBuilder("{");
    if (!(first instanceof HeaderV1)) {
      // iabgpp-java reads a bare TC string ("C…") as a tcfeuv2 section (and files it under "header").
      EncodableSection section = first != null ? first : model.getSection(TcfEuV2.NAME);
      json.append(quote(TcfEuV2.NAME)).append(':').append(section(section));
      return json.append('}').toString();
    }
    @SuppressWarnings("unchecked")
    List<Integer> ids = (List<Integer>) first.getFieldValue("SectionIds");
    String[] parts = text.split("~");
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      int id = ids.get(i);
      if (!seen.add(id)) {
        throw new IllegalStateException("GppDump: section id " + id + " appears twice in the header; iabgpp-java keeps only the last");
      }
      if (i > 0) {
        json.append(',');
      }
      String name = Sections.SECTION_ID_NAME_MAP.get(id);
      if (name == null) {
        // Not a section iabgpp-java knows (1, 4, 24 and later): it skips it; we keep its text.
        json.append(quote(Integer.toString(id))).append(':').append(quote(i + 1 < parts.length ? parts[i + 1] : ""));
      } else {
        json.append(quote(name)).append(':').append(section(model.getSection(name)));
      }
    }
    return json.append('}').toString();
  }

  /** One section's fields, the core's then those of each sub-section present in the string, as one JSON object. */
  static String section(EncodableSection section) throws Exception {
    Map<String, String> names = SPEC_NAMES.getOrDefault(section.getName(), Map.of());
    section.getFieldValue("Version"); // makes iabgpp-java split the section into its segments
    StringBuilder json = new StringBuilder("{");
    boolean firstField = true;
    for (EncodableSegment segment : segments(section)) {
      if (!wasInString(segment)) {
        continue;
      }
      for (String field : segment.getFieldNames()) {
        if (field.endsWith("SegmentType") || field.endsWith("SegmentIncluded")) {
          continue; // structural, not printed
        }
        Object value = segment.getFieldValue(field);
        String name = names.getOrDefault(field, field);
        if (!firstField) {
          json.append(',');
        }
        firstField = false;
        json.append(quote(name)).append(':').append(value(field, value));
      }
    }
    return json.append('}').toString();
  }

  /** A field's value in the JSON form's type. */
  static String value(String field, Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof Character || value instanceof String) {
      return quote(value.toString());
    }
    if (value instanceof ZonedDateTime) {
      return quote(ISO_MILLIS.format(((ZonedDateTime) value).withZoneSameInstant(ZoneOffset.UTC)));
    }
    if (value instanceof List) {
      List<?> list = (List<?>) value;
      if (N_BITFIELDS.contains(field)) {
        return array(list);
      }
      if (!list.isEmpty() && list.get(0) instanceof Boolean) {
        List<Integer> set = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
          if (Boolean.TRUE.equals(list.get(i))) {
            set.add(i + 1);
          }
        }
        return array(set);
      }
      if (!list.isEmpty() && list.get(0) instanceof RangeEntry) {
        List<RangeEntry> entries = new ArrayList<>();
        for (Object entry : list) {
          entries.add((RangeEntry) entry);
        }
        entries.sort(Comparator.comparingInt(RangeEntry::getKey).thenComparingInt(RangeEntry::getType));
        StringBuilder json = new StringBuilder("[");
        for (RangeEntry entry : entries) {
          if (json.length() > 1) {
            json.append(',');
          }
          json.append("{\"PurposeId\":").append(entry.getKey())
              .append(",\"RestrictionType\":").append(entry.getType())
              .append(",\"Vendors\":").append(array(new ArrayList<>(new TreeSet<>(entry.getIds())))).append('}');
        }
        return json.append(']').toString();
      }
      List<Integer> ids = new ArrayList<>();
      for (Object id : list) {
        ids.add((Integer) id);
      }
      return array(new ArrayList<>(new TreeSet<>(ids)));
    }
    throw new IllegalStateException("GppDump: no JSON form for " + field + " of type " + value.getClass().getName());
  }

  /** The segments iabgpp-java keeps for a section (a private list, so through reflection). */
  @SuppressWarnings("unchecked")
  static List<EncodableSegment> segments(EncodableSection section) throws Exception {
    return (List<EncodableSegment>) privateField(section, "segments");
  }

  /** Whether iabgpp-java was given this segment's text (a segment absent from the string is never decoded). */
  static boolean wasInString(EncodableSegment segment) throws Exception {
    return privateField(segment, "encodedString") != null;
  }

  static Object privateField(Object object, String name) throws Exception {
    for (Class<?> type = object.getClass(); type != null; type = type.getSuperclass()) {
      try {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field.get(object);
      } catch (NoSuchFieldException notHere) {
        // look in the superclass
      }
    }
    throw new NoSuchFieldException(object.getClass().getName() + "." + name);
  }

  static String array(List<?> values) {
    StringBuilder json = new StringBuilder("[");
    for (Object value : values) {
      if (json.length() > 1) {
        json.append(',');
      }
      json.append(value);
    }
    return json.append(']').toString();
  }

  /** The exception chain, outermost first: "Type: message <- Cause: message". */
  static String describe(Throwable error) {
    StringBuilder text = new StringBuilder();
    for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
      if (text.length() > 0) {
        text.append(" <- ");
      }
      text.append(e.getClass().getSimpleName());
      if (e.getMessage() != null) {
        text.append(": ").append(e.getMessage());
      }
    }
    return text.toString();
  }

  static String quote(String text) {
    StringBuilder json = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"': json.append("\\\""); break;
        case '\\': json.append("\\\\"); break;
        case '\n': json.append("\\n"); break;
        case '\r': json.append("\\r"); break;
        case '\t': json.append("\\t"); break;
        default:
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
      }
    }
    return json.append('"').toString();
  }
}
