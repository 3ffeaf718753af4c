package io.quotaflow.records;

import io.quotaflow.records.TicketParser.Invalid;
import io.quotaflow.records.TicketParser.Parsed;
import io.quotaflow.records.TicketParser.Valid;
import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TicketParserTest {

    private static final String SURROGATE = "invalid Unicode (unpaired surrogate)";

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code prefix} + raw bytes + {@code suffix}, for byte sequences no Java string encodes to. */
    private static byte[] bytes(String prefix, int[] raw, String suffix) {
        byte[] p = utf8(prefix);
        byte[] s = utf8(suffix);
        byte[] out = new byte[p.length + raw.length + s.length];
        System.arraycopy(p, 0, out, 0, p.length);
        for (int i = 0; i < raw.length; i++) {
            out[p.length + i] = (byte) raw[i];
        }
        System.arraycopy(s, 0, out, p.length + raw.length, s.length);
        return out;
    }

    private static Ticket valid(String json) {
        return valid(utf8(json));
    }

    private static Ticket valid(byte[] value) {
        Parsed parsed = TicketParser.parse(value);
        assertThat(parsed).as("parse result").isInstanceOf(Valid.class);
        return ((Valid) parsed).ticket();
    }

    private static String reason(String json) {
        return reason(utf8(json));
    }

    private static String reason(byte[] value) {
        Parsed parsed = TicketParser.parse(value);
        assertThat(parsed).as("parse result").isInstanceOf(Invalid.class);
        return ((Invalid) parsed).reason();
    }

    // --- well-formed tickets ---

    @Test
    void shouldParseMinimalTicket() {
        Ticket t = valid("{\"id\":\"T-1\",\"body\":\"my order never arrived\"}");

        assertThat(t.id()).isEqualTo("T-1");
        assertThat(t.body()).isEqualTo("my order never arrived");
        assertThat(t.subject()).isNull();
        assertThat(t.tenant()).isEqualTo(Ticket.DEFAULT_TENANT);
        assertThat(t.priority()).isEmpty();
    }

    @Test
    void shouldParseAllKnownFields() {
        Ticket t = valid("{\"id\":\"T-2\",\"subject\":\"Olá\",\"body\":\"não consigo\",\"tenant\":\"acme\","
                + "\"priority\":\"Interactive\"}");

        assertThat(t.subject()).isEqualTo("Olá");
        assertThat(t.body()).isEqualTo("não consigo");
        assertThat(t.tenant()).isEqualTo("acme");
        assertThat(t.priority()).contains(Priority.INTERACTIVE);
    }

    @Test
    void shouldAcceptTicketWithOnlySubjectOrOnlyBody() {
        assertThat(valid("{\"id\":\"a\",\"subject\":\"s\"}").subject()).isEqualTo("s");
        assertThat(valid("{\"id\":\"b\",\"body\":\"b\",\"subject\":\"  \"}").body()).isEqualTo("b");
    }

    @Test
    void shouldKeepUnknownFieldsInTheJsonNode() {
        Ticket t = valid("{\"id\":\"T-3\",\"body\":\"b\",\"submittedAt\":\"2025-11-05T13:40:02Z\","
                + "\"metadata\":{\"channel\":\"api\",\"tags\":[1,2.5,null,true]}}");

        assertThat(t.json().get("submittedAt").textValue()).isEqualTo("2025-11-05T13:40:02Z");
        assertThat(t.json().get("metadata").get("channel").textValue()).isEqualTo("api");
        assertThat(t.json().get("metadata").get("tags")).hasSize(4);
        assertThat(t.json().get("id").textValue()).isEqualTo("T-3");
    }

    @Test
    void shouldAcceptLeadingAndTrailingWhitespace() {
        assertThat(valid(" \r\n\t{\"id\":\"T-1\",\"body\":\"b\"} \n\t\r\n").id()).isEqualTo("T-1");
    }

    @Test
    void shouldTolerateUtf8ByteOrderMark() {
        assertThat(valid(bytes("", new int[] {0xEF, 0xBB, 0xBF}, "{\"id\":\"T-1\",\"body\":\"b\"}")).id())
                .isEqualTo("T-1");
    }

    // --- one JSON object, nothing else ---

    @Test
    void shouldRejectEmptyValue() {
        assertThat(reason((byte[]) null)).isEqualTo("empty value");
        assertThat(reason(new byte[0])).isEqualTo("empty value");
        assertThat(reason(" \n\t ")).isEqualTo("empty value");
    }

    @Test
    void shouldRejectNullLiteral() {
        assertThat(reason("null")).isEqualTo("not a JSON object");
    }

    @Test
    void shouldRejectArraysAndScalarsAtTopLevel() {
        assertThat(reason("[{\"id\":\"T-1\",\"body\":\"b\"}]")).isEqualTo("not a JSON object");
        assertThat(reason("[1,2,3]")).isEqualTo("not a JSON object");
        assertThat(reason("42")).isEqualTo("not a JSON object");
        assertThat(reason("\"T-1\"")).isEqualTo("not a JSON object");
        assertThat(reason("true")).isEqualTo("not a JSON object");
    }

    @Test
    void shouldRejectNonJsonWithShortReason() {
        assertThat(reason("not json at all")).isEqualTo("not JSON: Unrecognized token 'not'");
        assertThat(reason("{\"id\": \"T-1\", \"body\": \"truncated"))
                .isEqualTo("not JSON: Unexpected end-of-input in VALUE_STRING");
        assertThat(reason("{\"id\": \"T-1\"")).isEqualTo("not JSON: Unexpected end-of-input: expected close marker for Object");
        assertThat(reason("{'id': 'T-1', 'body': 'b'}")).startsWith("not JSON: ");
        assertThat(reason("{\"id\": \"T-1\", \"body\": \"b\",}")).startsWith("not JSON: ");
        assertThat(reason("{\"id\": NaN, \"body\": \"b\"}")).startsWith("not JSON: ");
        assertThat(reason("{\"id\": \"a\nb\", \"body\": \"b\"}")).startsWith("not JSON: ");
    }

    @Test
    void shouldRejectTwoObjectsInOneValue() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"} {\"id\":\"T-2\",\"body\":\"c\"}"))
                .isEqualTo("more than one JSON value");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"}\n{\"id\":\"T-2\",\"body\":\"c\"}"))
                .isEqualTo("more than one JSON value");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"} 42")).isEqualTo("more than one JSON value");
        assertThat(reason("[1] [2]")).isEqualTo("more than one JSON value");
    }

    @Test
    void shouldRejectTrailingGarbage() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"} hello")).isEqualTo("trailing data after the JSON value");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"}}")).isEqualTo("trailing data after the JSON value");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"},")).isEqualTo("trailing data after the JSON value");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\"}\u0000")).isEqualTo("trailing data after the JSON value");
    }

    // --- duplicate keys ---

    @Test
    void shouldRejectDuplicateTopLevelKey() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"id\":\"T-2\"}")).isEqualTo("duplicate key 'id'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"first\",\"body\":\"second\"}")).isEqualTo("duplicate key 'body'");
    }

    @Test
    void shouldRejectDuplicateKeyWrittenWithAnEscape() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"\\u0069d\":\"T-2\"}")).isEqualTo("duplicate key 'id'");
    }

    @Test
    void shouldRejectDuplicateNestedKeyNamingItsPath() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"channel\":\"api\",\"channel\":\"email\"}}"))
                .isEqualTo("duplicate key 'metadata.channel'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"list\":[{\"a\":1},{\"a\":1,\"a\":2}]}}"))
                .isEqualTo("duplicate key 'metadata.list[1].a'");
    }

    @Test
    void shouldAllowTheSameKeyInDifferentObjects() {
        Ticket t = valid("{\"id\":\"T-1\",\"body\":\"b\",\"a\":{\"id\":1,\"body\":2},\"b\":[{\"id\":1},{\"id\":2}]}");

        assertThat(t.id()).isEqualTo("T-1");
    }

    // --- id ---

    @Test
    void shouldRejectMissingNullOrBlankId() {
        assertThat(reason("{\"subject\":\"no id\"}")).isEqualTo("missing id");
        assertThat(reason("{\"id\":null,\"body\":\"b\"}")).isEqualTo("missing id");
        assertThat(reason("{\"id\":\"\",\"body\":\"b\"}")).isEqualTo("blank id");
        assertThat(reason("{\"id\":\" \\t \",\"body\":\"b\"}")).isEqualTo("blank id");
    }

    @Test
    void shouldKeepStringIdExactly() {
        assertThat(valid("{\"id\":\" T-1 \",\"body\":\"b\"}").id()).isEqualTo(" T-1 ");
        assertThat(valid("{\"id\":\"1e400\",\"body\":\"b\"}").id()).isEqualTo("1e400");
        assertThat(valid("{\"id\":\"\\u0054-1\",\"body\":\"b\"}").id()).isEqualTo("T-1");
    }

    @Test
    void shouldRenderIntegerIdsCanonically() {
        assertThat(valid("{\"id\":42,\"body\":\"b\"}").id()).isEqualTo("42");
        assertThat(valid("{\"id\":0,\"body\":\"b\"}").id()).isEqualTo("0");
        assertThat(valid("{\"id\":-0,\"body\":\"b\"}").id()).isEqualTo("0");
        assertThat(valid("{\"id\":-17,\"body\":\"b\"}").id()).isEqualTo("-17");
        assertThat(valid("{\"id\":9223372036854775808,\"body\":\"b\"}").id()).isEqualTo("9223372036854775808");
        assertThat(valid("{\"id\":12345678901234567890123,\"body\":\"b\"}").id()).isEqualTo("12345678901234567890123");
    }

    @Test
    void shouldRejectFloatIdsInsteadOfCollapsingThem() {
        assertThat(reason("{\"id\":1e400,\"body\":\"b\"}")).isEqualTo("id must be a string or an integer");
        assertThat(reason("{\"id\":2e400,\"body\":\"b\"}")).isEqualTo("id must be a string or an integer");
        for (String id : List.of("1.0", "1E2", "1e0", "-0.0", "0.5", "12345678901234567890123.0")) {
            assertThat(reason("{\"id\":" + id + ",\"body\":\"b\"}")).as(id).isEqualTo("id must be a string or an integer");
        }
    }

    @Test
    void shouldRejectBooleanObjectAndArrayIds() {
        for (String id : List.of("true", "false", "{}", "{\"v\":1}", "[]", "[\"T-1\"]")) {
            assertThat(reason("{\"id\":" + id + ",\"body\":\"b\"}")).as(id).isEqualTo("id must be a string or an integer");
        }
    }

    @Test
    void shouldLimitIdToTwoHundredFiftySixCharacters() {
        assertThat(valid("{\"id\":\"" + "x".repeat(256) + "\",\"body\":\"b\"}").id()).hasSize(256);
        assertThat(reason("{\"id\":\"" + "x".repeat(257) + "\",\"body\":\"b\"}")).isEqualTo("id longer than 256 characters");
        assertThat(valid("{\"id\":" + "9".repeat(256) + ",\"body\":\"b\"}").id()).hasSize(256);
        assertThat(reason("{\"id\":" + "9".repeat(257) + ",\"body\":\"b\"}")).isEqualTo("id longer than 256 characters");
    }

    // --- subject, body, tenant, priority ---

    @Test
    void shouldRejectNonStringTextFieldsNamingThem() {
        assertThat(reason("{\"id\":\"T-1\",\"subject\":42,\"body\":\"b\"}")).isEqualTo("subject must be a string");
        assertThat(reason("{\"id\":\"T-1\",\"subject\":\"s\",\"body\":{\"text\":\"b\"}}")).isEqualTo("body must be a string");
        assertThat(reason("{\"id\":\"T-1\",\"body\":[\"b\"]}")).isEqualTo("body must be a string");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"tenant\":true}")).isEqualTo("tenant must be a string");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"tenant\":7}")).isEqualTo("tenant must be a string");
    }

    @Test
    void shouldTreatNullFieldsAsAbsent() {
        Ticket t = valid("{\"id\":\"T-1\",\"subject\":null,\"body\":\"b\",\"tenant\":null,\"priority\":null}");

        assertThat(t.subject()).isNull();
        assertThat(t.tenant()).isEqualTo(Ticket.DEFAULT_TENANT);
        assertThat(t.priority()).isEmpty();
    }

    @Test
    void shouldRejectTicketWithoutText() {
        assertThat(reason("{\"id\":\"T-9\"}")).isEqualTo("missing subject and body");
        assertThat(reason("{\"id\":\"T-9\",\"subject\":\" \",\"body\":\"\\n\"}")).isEqualTo("missing subject and body");
        assertThat(reason("{\"id\":\"T-9\",\"subject\":null,\"body\":null}")).isEqualTo("missing subject and body");
    }

    @Test
    void shouldAcceptTicketWithoutTextWhenIgnoringText() {
        Parsed parsed = TicketParser.parseIgnoringText(utf8("{\"id\":\"T-EMPTY-1\",\"subject\":\" \"}"));

        assertThat(parsed).isInstanceOf(Valid.class);
        assertThat(TicketParser.hasText(((Valid) parsed).ticket())).isFalse();
        assertThat(TicketParser.parseIgnoringText(utf8("{\"id\":true}"))).isEqualTo(new Invalid(TicketParser.BAD_ID_TYPE));
    }

    @Test
    void shouldKeepUnknownPriorityNamesAsNoPriority() {
        assertThat(valid("{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"urgent\"}").priority()).isEmpty();
        assertThat(valid("{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"\"}").priority()).isEmpty();
        assertThat(valid("{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\" BULK \"}").priority()).contains(Priority.BULK);
    }

    @Test
    void shouldRejectNonStringPriority() {
        for (String priority : List.of("1", "true", "{\"name\":\"bulk\"}", "[\"bulk\"]")) {
            assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"priority\":" + priority + "}")).as(priority)
                    .isEqualTo("priority must be a string");
        }
    }

    // --- Unicode ---

    @Test
    void shouldRejectLoneSurrogatesInId() {
        assertThat(reason("{\"id\":\"\\ud800\",\"body\":\"b\"}")).isEqualTo(SURROGATE + " in field 'id'");
        assertThat(reason("{\"id\":\"T-\\udc00\",\"body\":\"b\"}")).isEqualTo(SURROGATE + " in field 'id'");
        assertThat(reason("{\"id\":\"T-1\\uD83D\",\"body\":\"b\"}")).isEqualTo(SURROGATE + " in field 'id'");
    }

    @Test
    void shouldRejectLoneSurrogatesInBody() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"high \\ud800 alone\"}")).isEqualTo(SURROGATE + " in field 'body'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"low \\udfff alone\"}")).isEqualTo(SURROGATE + " in field 'body'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"reversed \\ude00\\ud83d\"}")).isEqualTo(SURROGATE + " in field 'body'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"two highs \\ud83d\\ud83d\"}")).isEqualTo(SURROGATE + " in field 'body'");
    }

    @Test
    void shouldRejectLoneSurrogatesInOtherAndNestedValues() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"note\":\"\\ud800\"}")).isEqualTo(SURROGATE + " in field 'note'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"tags\":[\"ok\",\"\\udc00\"]}}"))
                .isEqualTo(SURROGATE + " in field 'metadata.tags[1]'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"\\ud800\"}")).isEqualTo(SURROGATE + " in field 'priority'");
    }

    @Test
    void shouldRejectLoneSurrogatesInFieldNames() {
        // escapes in names: Jackson's parser already refuses them, before the name is complete
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"k\\ud800\":1}")).isEqualTo(SURROGATE + " in a field name");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"k\\ud800\\u0041\":1}")).isEqualTo(SURROGATE + " in a field name");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"ok\":1,\"\\udc00\":\"x\"}}"))
                .isEqualTo(SURROGATE + " in a field name in 'metadata'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"m\":[[{\"ok\":{\"\\ud800x\":null}}]]}"))
                .isEqualTo(SURROGATE + " in a field name in 'm[0][0].ok'");
    }

    @Test
    void shouldAcceptAndPreserveSurrogatePairs() {
        Ticket raw = valid("{\"id\":\"T-\uD83D\uDE00\",\"body\":\"Olá \uD83D\uDE00 \uD83C\uDDE7\uD83C\uDDF7\"}");
        Ticket escaped = valid("{\"id\":\"T-\\ud83d\\ude00\",\"body\":\"Olá \\uD83D\\uDE00 \\ud83c\\udde7\\ud83c\\uddf7\"}");

        assertThat(raw.id()).isEqualTo("T-\uD83D\uDE00").isEqualTo(escaped.id());
        assertThat(raw.body()).isEqualTo("Olá \uD83D\uDE00 \uD83C\uDDE7\uD83C\uDDF7").isEqualTo(escaped.body());
        assertThat(valid("{\"id\":\"T-1\",\"body\":\"b\",\"\uD83D\uDE00\":{\"\\ud83d\\ude00\":1}}").json()
                .get("\uD83D\uDE00").has("\uD83D\uDE00")).isTrue();
    }

    @Test
    void shouldAcceptMultiByteUtf8() {
        Ticket t = valid("{\"id\":\"チケット-1\",\"subject\":\"Cobrança\",\"body\":\"€ 𝄞 \u00A0ü\"}");

        assertThat(t.id()).isEqualTo("チケット-1");
        assertThat(t.body()).isEqualTo("€ 𝄞 \u00A0ü");
    }

    @Test
    void shouldRejectInvalidUtf8ByteSequences() {
        int[][] sequences = {
                {0xC3, 0x28},             // lead byte followed by ASCII
                {0x80},                   // lone continuation byte
                {0xE2, 0x82},             // truncated three-byte sequence
                {0xFF},                   // never valid
                {0xFE},
                {0xC0, 0x80},             // overlong U+0000 (Jackson alone decodes it)
                {0xC1, 0xBF},             // overlong
                {0xE0, 0x80, 0xAF},       // overlong '/' (Jackson alone decodes it)
                {0xF0, 0x80, 0x80, 0xAF}, // overlong
                {0xED, 0xA0, 0x80},       // encoded surrogate U+D800 (CESU-8)
                {0xF4, 0x90, 0x80, 0x80}, // above U+10FFFF (Jackson alone decodes it)
                {0xF5, 0x80, 0x80, 0x80},
        };
        for (int[] seq : sequences) {
            assertThat(reason(bytes("{\"id\":\"T-1\",\"body\":\"", seq, "\"}"))).as(java.util.Arrays.toString(seq))
                    .isEqualTo("invalid UTF-8 byte sequence");
        }
        assertThat(reason(bytes("{\"id\":\"T-1\",\"body\":\"b\",\"", new int[] {0xC3, 0x28}, "\":1}")))
                .isEqualTo("invalid UTF-8 byte sequence");
        assertThat(reason(bytes("{\"id\":\"T-1\",\"body\":\"b\"}", new int[] {0xE2, 0x82}, "")))
                .isEqualTo("invalid UTF-8 byte sequence");
    }

    @Test
    void shouldRejectUtf16AndUtf32() {
        String json = "{\"id\":\"T-1\",\"body\":\"b\"}";
        for (String charset : List.of("UTF-16LE", "UTF-16BE", "UTF-16", "UTF-32LE", "UTF-32BE")) {
            assertThat(reason(json.getBytes(Charset.forName(charset)))).as(charset)
                    .isIn("not UTF-8 (UTF-16 or UTF-32 are not accepted)", "invalid UTF-8 byte sequence");
        }
        assertThat(reason(json.getBytes(StandardCharsets.UTF_16LE))).isEqualTo("not UTF-8 (UTF-16 or UTF-32 are not accepted)");
    }

    // --- limits ---

    @Test
    void shouldRejectAbsurdNestingWithoutStackOverflow() {
        String prefix = "{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":";
        String arrays = prefix + "[".repeat(200_000) + "]".repeat(200_000) + "}";
        String objects = prefix + "{\"a\":".repeat(200_000) + "1" + "}".repeat(200_000) + "}";
        String unclosed = "[".repeat(1_000_000);

        for (String json : List.of(arrays, objects, unclosed)) {
            assertThat(reason(json))
                    .isEqualTo("JSON limit exceeded: Document nesting depth (1001) exceeds the maximum allowed (1000)");
        }
    }

    @Test
    void shouldAcceptNestingWithinJacksonsDefaultLimit() {
        String json = "{\"id\":\"T-1\",\"body\":\"b\",\"m\":" + "[".repeat(998) + "\"\\ud800\"" + "]".repeat(998) + "}";

        assertThat(reason(json)).as("the surrogate walk reaches the deepest value")
                .isEqualTo(SURROGATE + " in field 'm" + "[0]".repeat(998).substring(0, 59) + "...'");
        assertThat(valid(json.replace("\\ud800", "ok")).json().get("m")).isNotNull();
    }

    @Test
    void shouldRejectOverlongNumbers() {
        assertThat(reason("{\"id\":" + "1".repeat(1_001) + ",\"body\":\"b\"}"))
                .isEqualTo("JSON limit exceeded: Number value length (1001) exceeds the maximum allowed (1000)");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"n\":0." + "1".repeat(5_000) + "}"))
                .startsWith("JSON limit exceeded: Number value length");
    }

    // --- reasons ---

    @Test
    void shouldNotEchoLargeChunksOfTheInput() {
        String big = "x".repeat(100_000);
        String name = "x".repeat(40_000); // names are limited to 50 000 characters
        List<String> reasons = List.of(
                reason("{\"id\":\"T-1\",\"body\":\"b\",\"" + name + "\":1,\"" + name + "\":2}"),
                reason("{\"id\":\"T-1\",\"body\":\"b\",\"" + name + "\\ud800\":1}"),
                reason("{\"id\":\"T-1\",\"body\":\"b\",\"m\":{\"" + name + "\":{\"\\ud800\":1}}}"),
                reason("{\"id\":\"T-1\",\"body\":\"b\",\"" + name + "\":[\"\\ud800\"]}"),
                reason("{\"id\":\"T-1\",\"body\":\"b\",\"" + big + "\":1}"),
                reason("{\"id\":" + big + "}"),
                reason(big),
                reason("{\"id\":\"T-1\",\"body\":\"b\"} " + big),
                reason("{\"" + name + "\" " + big + "}"));

        assertThat(reasons).allSatisfy(r -> {
            assertThat(r).hasSizeLessThan(130);
            assertThat(r).doesNotContain("x".repeat(61));
        });
        assertThat(reasons.get(0)).isEqualTo("duplicate key '" + "x".repeat(60) + "...'");
        assertThat(reasons.get(2)).isEqualTo(SURROGATE + " in a field name in 'm." + "x".repeat(58) + "...'");
        assertThat(reasons.get(3)).isEqualTo(SURROGATE + " in field '" + "x".repeat(60) + "...'");
        assertThat(reasons.get(4)).startsWith("JSON limit exceeded: Name length")
                .endsWith("exceeds the maximum allowed (50000)");
    }

    @Test
    void shouldEscapeControlCharactersAndSurrogatesInEchoedNames() {
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"a\\nb\":1,\"a\\nb\":2}")).isEqualTo("duplicate key 'a\\u000Ab'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"\\u2028\\ud83d\\ude00\":{\"a\":1,\"a\":2}}"))
                .isEqualTo("duplicate key '\\u2028\uD83D\uDE00.a'");
        assertThat(reason("{\"id\":\"T-1\",\"body\":\"b\",\"\\u0000\":[\"\\ud800\"]}"))
                .isEqualTo(SURROGATE + " in field '\\u0000[0]'");
    }

    @Test
    void shouldGiveTheSameAnswerEveryTime() {
        byte[] value = utf8("{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"x\":[1,{\"y\":\"z\"}]}}");

        Ticket first = valid(value);
        Ticket second = valid(value);

        assertThat(second).isEqualTo(first);
        assertThat(TicketParser.parse(utf8("{\"id\":true}"))).isEqualTo(TicketParser.parse(utf8("{\"id\":true}")));
        assertThat(first.json().toString()).isEqualTo(new String(value, StandardCharsets.UTF_8));
    }
}
