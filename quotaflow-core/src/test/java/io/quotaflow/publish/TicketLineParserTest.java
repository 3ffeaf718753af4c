package io.quotaflow.publish;

import io.quotaflow.records.Priority;
import io.quotaflow.records.TicketParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class TicketLineParserTest {

    private final TicketLineParser byField = new TicketLineParser();
    private final TicketLineParser toBulk = new TicketLineParser(Optional.of(Priority.BULK));

    private TicketLine parse(TicketLineParser parser, long n, String line) {
        return parser.parse(n, line).orElseThrow();
    }

    @Test
    void shouldRouteByPriorityField() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":\"x\",\"priority\":\"interactive\"}").topic())
                .isEqualTo("tickets.interactive");
        assertThat(parse(byField, 2, "{\"id\":\"T-2\",\"body\":\"x\",\"priority\":\"bulk\"}").topic())
                .isEqualTo("tickets.bulk");
        assertThat(parse(byField, 3, "{\"id\":\"T-3\",\"body\":\"x\",\"priority\":\"Standard\"}").priority())
                .isEqualTo(Priority.STANDARD);
    }

    @Test
    void shouldRouteToStandardWhenPriorityIsAbsentOrNull() {
        TicketLine absent = parse(byField, 1, "{\"id\":\"T-1\",\"subject\":\"s\"}");
        TicketLine nul = parse(byField, 2, "{\"id\":\"T-2\",\"subject\":\"s\",\"priority\":null}");

        assertThat(absent.priority()).isEqualTo(Priority.STANDARD);
        assertThat(absent.warnings()).isEmpty();
        assertThat(nul.priority()).isEqualTo(Priority.STANDARD);
        assertThat(nul.warnings()).isEmpty();
    }

    @Test
    void shouldWarnAndRouteToStandardOnUnknownPriority() {
        TicketLine line = parse(byField, 7, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"urgent\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.topic()).isEqualTo("tickets.standard");
        assertThat(line.warnings()).containsExactly("unknown priority \"urgent\"");
    }

    @Test
    void shouldReportNonStringPriorityAsInvalidEvenUnderAnOverride() {
        TicketLine line = parse(byField, 7, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":1}");
        TicketLine overridden = parse(toBulk, 8, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":{\"p\":\"bulk\"}}");

        assertThat(line.valid()).isFalse();
        assertThat(line.problem()).isEqualTo("priority must be a string");
        assertThat(line.key()).isEqualTo("line-7");
        assertThat(line.topic()).isEqualTo("tickets.standard");
        assertThat(overridden.problem()).as("the pipeline rejects it whatever the topic").isEqualTo("priority must be a string");
        assertThat(overridden.topic()).isEqualTo("tickets.bulk");
    }

    @Test
    void shouldUseOverrideWhateverThePriorityFieldSays() {
        TicketLine interactive = parse(toBulk, 1, "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":\"interactive\"}");
        TicketLine unknown = parse(toBulk, 2, "{\"id\":\"T-2\",\"body\":\"b\",\"priority\":\"whatever\"}");

        assertThat(interactive.topic()).isEqualTo("tickets.bulk");
        assertThat(unknown.topic()).isEqualTo("tickets.bulk");
        assertThat(unknown.warnings()).as("the field is irrelevant under an override").isEmpty();
    }

    @Test
    void shouldKeyByIdAndPreserveOriginalBytes() {
        String text = "  {\"subject\":\"Olá, não consigo\" , \"id\" : \"T-00042\",\"extra\":{\"a\":[1,2.50]}}\t";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);

        TicketLine line = byField.parse(9, bytes).orElseThrow();

        assertThat(line.key()).isEqualTo("T-00042");
        assertThat(line.value()).isSameAs(bytes).isEqualTo(text.getBytes(StandardCharsets.UTF_8));
        assertThat(line.text()).isEqualTo(text);
        assertThat(line.lineNumber()).isEqualTo(9);
    }

    @Test
    void shouldAcceptIntegerIdKeyedCanonically() {
        TicketLine line = parse(byField, 1, "{\"id\":12345,\"body\":\"b\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.key()).isEqualTo("12345");
        assertThat(parse(byField, 2, "{\"id\":-0,\"body\":\"b\"}").key()).isEqualTo("0");
        assertThat(parse(byField, 3, "{\"id\":12345678901234567890123,\"body\":\"b\"}").key())
                .isEqualTo("12345678901234567890123");
    }

    @Test
    void shouldReportFloatIdsInsteadOfKeyingThemByTheirDoubleValue() {
        TicketLine a = parse(byField, 1, "{\"id\":1e400,\"body\":\"b\"}");
        TicketLine b = parse(byField, 2, "{\"id\":2e400,\"body\":\"b\"}");

        assertThat(a.problem()).isEqualTo("id must be a string or an integer");
        assertThat(b.problem()).isEqualTo("id must be a string or an integer");
        assertThat(a.key()).isEqualTo("line-1");
        assertThat(parse(byField, 3, "{\"id\":1.0,\"body\":\"b\"}").problem()).isEqualTo(TicketLineParser.BAD_ID_TYPE);
    }

    @Test
    void shouldReportDuplicateKeysAtAnyDepth() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":\"b\",\"id\":\"T-2\"}").problem())
                .isEqualTo("duplicate key 'id'");
        assertThat(parse(byField, 2, "{\"id\":\"T-1\",\"body\":\"b\",\"metadata\":{\"a\":1,\"a\":1}}").problem())
                .isEqualTo("duplicate key 'metadata.a'");
    }

    @Test
    void shouldReportUnpairedSurrogates() {
        TicketLine line = parse(byField, 4, "{\"id\":\"T-\\ud800\",\"body\":\"b\"}");

        assertThat(line.valid()).isFalse();
        assertThat(line.problem()).isEqualTo("invalid Unicode (unpaired surrogate) in field 'id'");
        assertThat(line.key()).isEqualTo("line-4");
        assertThat(parse(byField, 5, "{\"id\":\"T-\\ud83d\\ude00\",\"body\":\"b\"}").key()).isEqualTo("T-\uD83D\uDE00");
    }

    @Test
    void shouldReportNonStringTextFields() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":42}").problem()).isEqualTo("body must be a string");
        assertThat(parse(byField, 2, "{\"id\":\"T-1\",\"body\":\"b\",\"tenant\":[]}").problem())
                .isEqualTo("tenant must be a string");
    }

    /** Every line the pipeline dead-letters as bad-input is either invalid here or carries the no-text warning. */
    @Test
    void shouldFlagEveryLineThePipelineWouldReject() {
        List<String> lines = List.of(
                "{\"id\":\"T-1\",\"body\":\"b\"}",
                "{\"id\":7,\"subject\":\"s\",\"priority\":\"urgent\"}",
                "{\"id\":\"T-1\",\"body\":\"b\"} {\"id\":\"T-2\",\"body\":\"b\"}",
                "{\"id\":\"T-1\",\"body\":\"b\"} trailing",
                "{\"id\":\"T-1\",\"body\":\"b\",\"body\":\"c\"}",
                "{\"id\":true,\"body\":\"b\"}",
                "{\"id\":1e400,\"body\":\"b\"}",
                "{\"id\":\"T-1\",\"body\":\"\\udc00\"}",
                "{\"id\":\"T-1\",\"body\":\"b\",\"x\\ud800\":1}",
                "{\"id\":\"T-1\",\"subject\":{},\"body\":\"b\"}",
                "{\"id\":\"T-1\",\"body\":\"b\",\"priority\":true}",
                "{\"id\":\"T-1\",\"subject\":\" \"}",
                "{\"id\":\"" + "x".repeat(300) + "\",\"body\":\"b\"}",
                "{\"id\":\"T-1\",\"body\":\"b\",\"m\":" + "[".repeat(2_000) + "]".repeat(2_000) + "}",
                "null",
                "[]",
                "nope");
        for (int i = 0; i < lines.size(); i++) {
            byte[] bytes = lines.get(i).getBytes(StandardCharsets.UTF_8);
            TicketLine line = byField.parse(i + 1, bytes).orElseThrow();
            boolean flagged = !line.valid() || line.warnings().contains(TicketLineParser.NO_TEXT);
            TicketParser.Parsed pipeline = TicketParser.parse(bytes);

            assertThat(flagged).as(lines.get(i)).isEqualTo(pipeline instanceof TicketParser.Invalid);
            if (pipeline instanceof TicketParser.Invalid invalid) {
                assertThat(line.valid() ? TicketLineParser.NO_TEXT : line.problem()).as(lines.get(i))
                        .isEqualTo(invalid.reason());
            } else {
                assertThat(line.key()).isEqualTo(((TicketParser.Valid) pipeline).ticket().id());
            }
        }
    }

    @Test
    void shouldSkipBlankLines() {
        assertThat(byField.parse(1, "")).isEmpty();
        assertThat(byField.parse(2, "   \t \r")).isEmpty();
    }

    @Test
    void shouldReportNotJsonWithLineNumber() {
        TicketLine line = parse(byField, 17, "{\"id\": \"T-1\", \"body\": \"truncated");

        assertThat(line.valid()).isFalse();
        assertThat(line.problem()).isEqualTo("not JSON: Unexpected end-of-input in VALUE_STRING");
        assertThat(line.problem()).startsWith(TicketLineParser.NOT_JSON);
        assertThat(line.lineNumber()).isEqualTo(17);
        assertThat(line.key()).isEqualTo("line-17");
        assertThat(line.topic()).isEqualTo("tickets.standard");
    }

    @Test
    void shouldReportSecondValuesAndTrailingGarbage() {
        assertThat(parse(byField, 1, "{\"id\":\"T-1\",\"body\":\"b\"} {\"id\":\"T-2\"}").problem())
                .isEqualTo("more than one JSON value");
        assertThat(parse(byField, 2, "{\"id\":\"T-1\",\"body\":\"b\"} hello").problem())
                .isEqualTo("trailing data after the JSON value");
        assertThat(parse(byField, 3, "hello world").problem()).isEqualTo("not JSON: Unrecognized token 'hello'");
        assertThat(parse(byField, 4, " {\"id\":\"T-1\",\"body\":\"b\"} \t").valid()).isTrue();
    }

    @Test
    void shouldReportInvalidUtf8() {
        byte[] bytes = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
        byte[] overlong = {'{', '"', 'i', 'd', '"', ':', '"', (byte) 0xC0, (byte) 0xAF, '"', ',', '"', 'b', '"', ':', '"',
                'b', '"', '}'};

        assertThat(byField.parse(3, bytes).orElseThrow().problem()).isEqualTo("invalid UTF-8 byte sequence");
        assertThat(byField.parse(4, overlong).orElseThrow().problem()).isEqualTo("invalid UTF-8 byte sequence");
    }

    @Test
    void shouldReportArraysAndScalarsAsNotAnObject() {
        assertThat(parse(byField, 1, "[{\"id\":\"T-1\",\"body\":\"b\"}]").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 2, "42").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 3, "null").problem()).isEqualTo("not a JSON object");
        assertThat(parse(byField, 4, "\"T-1\"").problem()).isEqualTo("not a JSON object");
    }

    @Test
    void shouldReportMissingOrUnusableId() {
        assertThat(parse(byField, 1, "{\"subject\":\"s\",\"body\":\"b\"}").problem()).isEqualTo("missing id");
        assertThat(parse(byField, 2, "{\"id\":null,\"body\":\"b\"}").problem()).isEqualTo("missing id");
        assertThat(parse(byField, 3, "{\"id\":\"  \",\"body\":\"b\"}").problem()).isEqualTo("blank id");
        assertThat(parse(byField, 4, "{\"id\":true,\"body\":\"b\"}").problem()).isEqualTo("id must be a string or an integer");
        assertThat(parse(byField, 5, "{\"id\":{\"v\":1},\"body\":\"b\"}").problem())
                .isEqualTo("id must be a string or an integer");
    }

    @Test
    void shouldRouteInvalidLinesToOverrideTopicUnderLineKey() {
        TicketLine line = parse(toBulk, 250, "{\"subject\":\"no id\",\"priority\":\"interactive\"}");

        assertThat(line.valid()).isFalse();
        assertThat(line.key()).isEqualTo("line-250");
        assertThat(line.topic()).isEqualTo("tickets.bulk");
    }

    @Test
    void shouldKeepTicketWithoutTextButWarn() {
        TicketLine line = parse(byField, 377, "{\"id\":\"T-EMPTY-1\",\"subject\":\" \",\"priority\":\"standard\"}");

        assertThat(line.valid()).isTrue();
        assertThat(line.key()).isEqualTo("T-EMPTY-1");
        assertThat(line.warnings()).containsExactly(TicketLineParser.NO_TEXT);
    }

    @Test
    void shouldAcceptTicketWithOnlySubjectOrOnlyBody() {
        assertThat(parse(byField, 1, "{\"id\":\"a\",\"subject\":\"s\"}").warnings()).isEmpty();
        assertThat(parse(byField, 2, "{\"id\":\"b\",\"body\":\"b\"}").warnings()).isEmpty();
    }
}
